import {
  eachItem,
  eachOfType,
  type FieldTable,
  isRecord,
  itemParam,
  outputTokens,
  scanByType,
  scanFields,
  serviceTier,
  scanToolList,
  type TypeTable,
  toolChoice,
  useCapability,
} from '../../access/wire-scan/scan-fields.js';
import type { Walker, WireScan, WireScanner } from '../../access/wire-scan/wire-scan.js';

/**
 * What a Chat Completions body asks of the upstream, field by field, following
 * https://platform.openai.com/docs/api-reference/chat/create (and openapi.yaml's ChatCompletionRequest).
 */

/** Content parts of any message. Audio input is media input, gated like images and files. */
const contentParts: TypeTable = {
  text: 'none',
  refusal: 'none',
  image_url: 'vision',
  file: 'vision',
  input_audio: 'vision',
};

const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/**
 * A message: its role, and the parts of its content. Other fields (`name`, `tool_calls`, the legacy
 * `function_call` of an assistant turn, `reasoning_content`) are history the upstream reads as text.
 */
const message: Walker = (value, param, scan) => {
  if (!isRecord(value)) return;
  if (!(typeof value.role === 'string' && roles.has(value.role))) scan.unknown.push(`${param}.role`);
  eachOfType(contentParts)(value.content, `${param}.content`, scan);
};

/** Function tools, and the free-form `custom` tools of GPT-5. */
const tools: TypeTable = { function: 'tools', custom: 'tools' };

/** `json_object` is plain JSON mode; only a schema is structured output. */
const responseFormats: TypeTable = { text: 'none', json_object: 'none', json_schema: 'json_schema' };

const responseFormat: Walker = (value, param, scan) => {
  if (isRecord(value)) scanByType(value, param, responseFormats, scan);
  else useCapability(scan, 'json_schema', param);
};

/** Text output is what every request gets; audio output is something no capability covers. */
const modalities: Walker = (value, param, scan) => {
  if (!(Array.isArray(value) && value.every((modality) => modality === 'text'))) scan.unknown.push(param);
};

const legacyFunctions: Walker = (value, param, scan) => {
  if (!Array.isArray(value)) useCapability(scan, 'tools', param);
  else value.forEach((_definition, index) => useCapability(scan, 'tools', itemParam(param, index)));
};

const topLevel: FieldTable = {
  model: 'none',
  messages: eachItem(message),
  // Sampling, logging and transport settings: they shape an answer, they do not widen what it may use.
  frequency_penalty: 'none',
  presence_penalty: 'none',
  logit_bias: 'none',
  logprobs: 'none',
  top_logprobs: 'none',
  temperature: 'none',
  top_p: 'none',
  seed: 'none',
  stop: 'none',
  n: 'none',
  stream: 'none',
  stream_options: 'none',
  metadata: 'none',
  store: 'none',
  user: 'none',
  safety_identifier: 'none',
  prompt_cache_key: 'none',
  prompt_cache_retention: 'none',
  service_tier: serviceTier,
  verbosity: 'none',
  max_tokens: outputTokens('max_output'),
  max_completion_tokens: outputTokens('max_output'),
  tools: (value, param, scan) => scanToolList(value, param, tools, scan),
  tool_choice: toolChoice(['none', 'auto']),
  parallel_tool_calls: 'none',
  // The legacy spelling of tools and tool_choice, still served by OpenAI.
  functions: legacyFunctions,
  function_call: toolChoice(['none', 'auto']),
  response_format: responseFormat,
  reasoning_effort: 'reasoning',
  // Not OpenAI's, but the reasoning switches OpenAI-compatible clients send (OpenRouter's, DeepSeek's).
  reasoning: 'reasoning',
  thinking: 'reasoning',
  modalities,
  // Audio output, predicted outputs and built-in web search: no capability covers them.
  audio: 'unknown',
  prediction: 'unknown',
  web_search_options: 'unknown',
};

export function scanOpenAIChat(body: Record<string, unknown>, scan: WireScan): void {
  scanFields(body, '', topLevel, scan);
}

/** How the permissions read a raw openai-chat body (access/wire-scan/wire-scan.ts). */
export const openAIChatWireScanner: WireScanner = { body: scanOpenAIChat };
