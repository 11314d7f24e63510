import {
  eachOfType,
  type FieldTable,
  isRecord,
  isSet,
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
 * What a Responses body asks of the upstream, field by field, following
 * https://platform.openai.com/docs/api-reference/responses/create (and openapi.yaml's
 * ResponsesCreateRequest). A pass-through forwards hosted tools and their items, which the converter never
 * sees, so every kind is named here.
 */

/** Content parts of messages and of tool outputs. Audio input is media input, gated like images and files. */
const contentParts: TypeTable = {
  input_text: 'none',
  output_text: 'none',
  refusal: 'none',
  input_image: 'vision',
  input_file: 'vision',
  input_audio: 'vision',
};

const roles = new Set(['user', 'assistant', 'system', 'developer']);

const message: Walker = (value, param, scan) => {
  if (!isRecord(value)) return;
  if (!(typeof value.role === 'string' && roles.has(value.role))) scan.unknown.push(`${param}.role`);
  eachOfType(contentParts)(value.content, `${param}.content`, scan);
};

/** A tool's output: a string, or content parts that may carry images and files. */
const toolOutput: Walker = (value, param, scan) => {
  if (isRecord(value)) eachOfType(contentParts)(value.output, `${param}.output`, scan);
};

/** A computer tool's screenshot: an image the model will look at. */
const computerCallOutput: Walker = (value, param, scan) => {
  useCapability(scan, 'tools', param);
  if (isRecord(value) && isSet(value.output)) useCapability(scan, 'vision', `${param}.output`);
};

/**
 * Input items by `type`. Calls and outputs of function and custom tools are conversation history, as in
 * Chat Completions; items of hosted tools ask for `tools`, since only a request offering those tools has a
 * use for them.
 */
const inputItems: TypeTable = {
  message,
  function_call: 'none',
  function_call_output: toolOutput,
  custom_tool_call: 'none',
  custom_tool_call_output: toolOutput,
  reasoning: 'none',
  item_reference: 'none',
  // Codex's compacted history (`POST /responses/compact`): opaque, like encrypted reasoning.
  compaction: 'none',
  // Codex's ask to compact (it ends the input): answered by a summary of the same conversation, with no tool.
  compaction_trigger: 'none',
  computer_call: 'tools',
  computer_call_output: computerCallOutput,
  // The model sees the generated image again.
  image_generation_call: ['tools', 'vision'],
  web_search_call: 'tools',
  file_search_call: 'tools',
  code_interpreter_call: 'tools',
  local_shell_call: 'tools',
  local_shell_call_output: 'tools',
  shell_call: 'tools',
  shell_call_output: 'tools',
  apply_patch_call: 'tools',
  apply_patch_call_output: 'tools',
  mcp_list_tools: 'tools',
  mcp_approval_request: 'tools',
  mcp_approval_response: 'tools',
  mcp_call: 'tools',
};

/** A message may leave out its `type`, and an item reference too (it has only an `id`). */
const itemType = (item: Record<string, unknown>): unknown => (isSet(item.type) ? item.type : 'role' in item ? 'message' : 'id' in item ? 'item_reference' : undefined);

const input = eachOfType(inputItems, { typeOf: itemType });

/**
 * The reference the gateway could not resolve: the upstream may know the item, and what it brings would
 * reach the model unseen.
 */
const unresolvedReference: Walker = (_value, param, scan) => {
  scan.unknown.push(param);
};

const broughtItems: TypeTable = { ...inputItems, item_reference: unresolvedReference };

/**
 * An item of the request's history (see BroughtItem in wire-scan.ts), resolved by the gateway: read as the
 * same item in `input` is, so naming an item instead of sending it asks for no less.
 */
export const scanOpenAIResponsesItem: Walker = (item, param, scan) => scanByType(item, param, broughtItems, scan, { typeOf: itemType });

/** Hosted tools, with their dated spellings. A namespace (Codex) groups tools, each of which is read too. */
const hostedTools: TypeTable = {
  function: 'tools',
  custom: 'tools',
  web_search: 'tools',
  web_search_2025_08_26: 'tools',
  web_search_preview: 'tools',
  web_search_preview_2025_03_11: 'tools',
  file_search: 'tools',
  code_interpreter: 'tools',
  computer_use_preview: 'tools',
  computer_use: 'tools',
  mcp: 'tools',
  local_shell: 'tools',
  shell: 'tools',
  apply_patch: 'tools',
  image_generation: ['tools', 'image_generation'],
};

/** A namespace holds tools but never another namespace, so the walk stays as shallow as the table. */
const namespace: Walker = (value, param, scan) => {
  useCapability(scan, 'tools', `${param}.type`);
  if (isRecord(value)) scanToolList(value.tools ?? [], `${param}.tools`, hostedTools, scan);
};

const tools: TypeTable = { ...hostedTools, namespace };

const textFormats: TypeTable = { text: 'none', json_object: 'none', json_schema: 'json_schema' };

const textConfig: FieldTable = {
  format: (value, param, scan) => (isRecord(value) ? scanByType(value, param, textFormats, scan) : useCapability(scan, 'json_schema', param)),
  verbosity: 'none',
};

const topLevel: FieldTable = {
  model: 'none',
  input,
  instructions: 'none',
  // The history these bring in is read from the gateway's store and checked item by item (responses-history.ts).
  previous_response_id: 'none',
  conversation: 'none',
  include: 'none',
  // Sampling, storage and transport settings: they shape an answer, they do not widen what it may use.
  temperature: 'none',
  top_p: 'none',
  top_logprobs: 'none',
  truncation: 'none',
  store: 'none',
  stream: 'none',
  stream_options: 'none',
  metadata: 'none',
  user: 'none',
  safety_identifier: 'none',
  prompt_cache_key: 'none',
  prompt_cache_retention: 'none',
  service_tier: serviceTier,
  max_output_tokens: outputTokens('max_output'),
  tools: (value, param, scan) => scanToolList(value, param, tools, scan),
  tool_choice: toolChoice(['none', 'auto']),
  parallel_tool_calls: 'none',
  max_tool_calls: 'none',
  reasoning: 'reasoning',
  text: (value, param, scan) => scanFields(value, param, textConfig, scan),
  // A stored prompt can bring its own tools and settings, and a background response runs on after the
  // request: neither is visible here, so neither is allowed to a narrowed key.
  prompt: 'unknown',
  background: 'unknown',
};

export function scanOpenAIResponses(body: Record<string, unknown>, scan: WireScan): void {
  scanFields(body, '', topLevel, scan);
}

/** How the permissions read a raw openai-responses body (access/wire-scan/wire-scan.ts). */
export const openAIResponsesWireScanner: WireScanner = { body: scanOpenAIResponses, item: scanOpenAIResponsesItem };
