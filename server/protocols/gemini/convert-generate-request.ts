import type { ModelRequest, ResponseFormat, ToolChoice, ToolDefinition } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { asRecord } from '../../providers/upstream/parse-json.js';
import { convertContents } from './convert-contents.js';
import { convertGeminiSchema } from './convert-gemini-schema.js';
import type { GeminiGenerateContentRequest, GeminiGenerationConfig, GeminiTool, GeminiToolConfig } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

export interface ConvertedGenerateRequest {
  request: ModelRequest;
  /**
   * Fields only a Gemini upstream can honour (Google's own tools, several candidates, cached content, a
   * non-JSON structured MIME type, non-text output). Pass-through takes them; translation refuses them
   * with 400, since leaving them out would answer a different question.
   */
  geminiOnly: string[];
}

/**
 * generateContent request → internal request (https://ai.google.dev/api/generate-content). The system
 * instruction's text parts become instructions, function declarations tools (`parameters` in Gemini's
 * Schema dialect converted to JSON Schema, `parametersJsonSchema` as it is), `toolConfig` the tool choice
 * and `generationConfig` the sampling, output and thinking settings. Dropped because no other upstream
 * has them: `safetySettings` and the fields this module does not read.
 *
 * @example
 * const { request, geminiOnly } = convertGenerateRequest(req.body, 'gpt-4o-mini');
 */
export function convertGenerateRequest(body: GeminiGenerateContentRequest, model: string): ConvertedGenerateRequest {
  const geminiOnly: string[] = [];
  const config = body.generationConfig ?? {};
  const declared = (body.tools ?? []).flatMap((tool, index) => convertTool(tool, index, geminiOnly));
  const { tools, toolChoice } = convertToolConfig(body.toolConfig, declared);
  if (body.cachedContent !== undefined) geminiOnly.push('cachedContent');
  if ((config.candidateCount ?? 1) > 1) geminiOnly.push('generationConfig.candidateCount');
  if ((config.responseModalities ?? []).some((modality) => modality !== 'TEXT')) geminiOnly.push('generationConfig.responseModalities');

  const request: ModelRequest = {
    model,
    instructions: (body.systemInstruction?.parts ?? []).flatMap((part) => (part.text ? [{ text: part.text }] : [])),
    messages: convertContents(body.contents),
    tools,
    toolChoice,
    responseFormat: convertResponseFormat(config, geminiOnly),
    stopSequences: config.stopSequences ?? [],
    maxOutputTokens: config.maxOutputTokens,
    temperature: config.temperature,
    topP: config.topP,
    topK: config.topK,
    seed: config.seed,
    presencePenalty: config.presencePenalty,
    frequencyPenalty: config.frequencyPenalty,
    reasoning: convertThinking(config.thinkingConfig),
  };
  return { request: withoutUndefined(request), geminiOnly };
}

/** A function without parameters takes none: an empty object schema, which every upstream accepts. */
const noParameters = { type: 'object', properties: {} };

function convertTool(tool: GeminiTool, index: number, geminiOnly: string[]): ToolDefinition[] {
  for (const [key, value] of Object.entries(tool)) if (key !== 'functionDeclarations' && value != null) geminiOnly.push(`tools[${index}].${key}`);
  return (tool.functionDeclarations ?? []).map((declaration) => ({
    name: declaration.name,
    ...(declaration.description !== undefined && { description: declaration.description }),
    parameters: asRecord(declaration.parametersJsonSchema) ?? (declaration.parameters ? convertGeminiSchema(declaration.parameters) : noParameters),
  }));
}

/**
 * `ANY` forces a call; with one allowed name it forces that function, with several the other functions
 * are left out of this request, which forces a call among them just the same.
 */
function convertToolConfig(config: GeminiToolConfig | undefined, tools: ToolDefinition[]): { tools: ToolDefinition[]; toolChoice: ToolChoice } {
  const { mode, allowedFunctionNames = [] } = config?.functionCallingConfig ?? {};
  for (const name of allowedFunctionNames) {
    if (!tools.some((tool) => tool.name === name)) {
      throw new GatewayError('invalid_request', `allowedFunctionNames names '${name}', which no functionDeclaration declares.`, {
        param: 'toolConfig.functionCallingConfig.allowedFunctionNames',
      });
    }
  }
  switch (mode) {
    case 'NONE':
      return { tools, toolChoice: { type: 'none' } };
    case 'ANY':
      if (allowedFunctionNames.length === 1) return { tools, toolChoice: { type: 'tool', name: allowedFunctionNames[0]! } };
      if (allowedFunctionNames.length > 1) return { tools: tools.filter((tool) => allowedFunctionNames.includes(tool.name)), toolChoice: { type: 'required' } };
      return { tools, toolChoice: { type: 'required' } };
    // VALIDATED lets the model choose, like AUTO, with calls checked against the schema.
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
    case undefined:
      return { tools, toolChoice: { type: 'auto' } };
    default:
      return assertNever(mode);
  }
}

/** `responseJsonSchema` wins over `responseSchema`, as at Google; a JSON MIME type alone is JSON mode. */
function convertResponseFormat(config: GeminiGenerationConfig, geminiOnly: string[]): ResponseFormat {
  const mimeType = config.responseMimeType ?? 'text/plain';
  if (mimeType !== 'application/json' && mimeType !== 'text/plain') {
    geminiOnly.push('generationConfig.responseMimeType');
    return { type: 'text' };
  }
  const jsonSchema = asRecord(config.responseJsonSchema);
  if (jsonSchema) return { type: 'json_schema', name: 'response', schema: jsonSchema };
  if (config.responseSchema) return { type: 'json_schema', name: 'response', schema: convertGeminiSchema(config.responseSchema) };
  return mimeType === 'application/json' ? { type: 'json_object' } : { type: 'text' };
}

const effortByLevel: Record<string, NonNullable<ModelRequest['reasoning']>['effort']> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/**
 * A budget is a budget (0 turns thinking off); `-1` ("let the model decide") and Gemini 3's
 * `thinkingLevel` become an effort. `includeThoughts` alone asks for no thinking of its own.
 */
function convertThinking(config: GeminiGenerationConfig['thinkingConfig']): ModelRequest['reasoning'] {
  if (!config) return undefined;
  const { thinkingBudget, thinkingLevel } = config;
  if (thinkingBudget !== undefined) return thinkingBudget < 0 ? { effort: 'medium' } : { budgetTokens: thinkingBudget };
  const effort = thinkingLevel === undefined ? undefined : effortByLevel[thinkingLevel.toUpperCase()];
  return effort ? { effort } : undefined;
}

function withoutUndefined(request: ModelRequest): ModelRequest {
  return Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)) as unknown as ModelRequest;
}
