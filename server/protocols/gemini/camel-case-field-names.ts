/**
 * Google's JSON parser takes both `generation_config` and `generationConfig` (proto field names and their
 * JSON names). The gateway reads the camelCase ones, so the snake_case spellings of the fields it acts on
 * are renamed before anything reads the body: otherwise a pass-through would carry a `max_output_tokens`
 * or `response_json_schema` to Google that permissions and capability gating never saw. Embed requests'
 * `task_type` and `output_dimensionality` are top-level keys, renamed alike. Only the
 * configuration objects' own keys are renamed, never user content such as schemas or function arguments.
 */
export function camelCaseFieldNames<T extends object>(body: T): T {
  const renamed = renameKeys(body as Record<string, unknown>);
  const config = renamed.generationConfig;
  if (isRecord(config)) {
    const generationConfig = renameKeys(config);
    if (isRecord(generationConfig.thinkingConfig)) generationConfig.thinkingConfig = renameKeys(generationConfig.thinkingConfig);
    renamed.generationConfig = generationConfig;
  }
  if (isRecord(renamed.toolConfig)) {
    const toolConfig = renameKeys(renamed.toolConfig);
    if (isRecord(toolConfig.functionCallingConfig)) toolConfig.functionCallingConfig = renameKeys(toolConfig.functionCallingConfig);
    renamed.toolConfig = toolConfig;
  }
  if (Array.isArray(renamed.tools)) renamed.tools = renamed.tools.map((tool) => (isRecord(tool) ? renameKeys(tool) : tool));
  return renamed as T;
}

/** A copy with snake_case keys in camelCase; a camelCase key already there wins over its snake_case twin. */
function renameKeys(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    if (camel === key || !(camel in record)) copy[camel] = value;
  }
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
