import {
  eachItem,
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
 * What a Messages body (create or count_tokens) asks of the upstream, field by field, following
 * https://docs.anthropic.com/en/api/messages and https://docs.anthropic.com/en/api/messages-count-tokens
 * (and openapi.yaml's AnthropicCreateMessageRequest). Server tools, MCP servers and the blocks they leave
 * in the conversation are forwarded by a pass-through untranslated, so every kind is named here.
 */

/** The content of a `content` document source: text, and images the model will look at. */
const sourceContentBlocks: TypeTable = { text: 'none', image: 'vision' };

/**
 * A plain-text document is text; a PDF (inline, by URL or by file ID) is read like an image. A document
 * whose source cannot be read is taken to be the latter.
 */
const documentSources: TypeTable = {
  text: 'none',
  content: (source, param, scan) => (isRecord(source) ? eachOfType(sourceContentBlocks)(source.content, `${param}.content`, scan) : undefined),
  base64: 'vision',
  url: 'vision',
  file: 'vision',
};

const document: Walker = (value, param, scan) => {
  const source = isRecord(value) ? value.source : undefined;
  if (isRecord(source)) scanByType(source, `${param}.source`, documentSources, scan);
  else useCapability(scan, 'vision', param);
};

/** What a tool result may hold (tool_reference comes from the tool search tool). */
const toolResultBlocks: TypeTable = { text: 'none', image: 'vision', document, search_result: 'none', tool_reference: 'none' };

const toolResult: Walker = (value, param, scan) => {
  if (isRecord(value)) eachOfType(toolResultBlocks)(value.content, `${param}.content`, scan);
};

/**
 * Message content blocks by `type`. Server tool calls and their results, echoed back from earlier turns,
 * ask for `tools`: only a request offering those tools has a use for them.
 */
const contentBlocks: TypeTable = {
  text: 'none',
  thinking: 'none',
  redacted_thinking: 'none',
  tool_use: 'none',
  search_result: 'none',
  image: 'vision',
  document,
  tool_result: toolResult,
  server_tool_use: 'tools',
  web_search_tool_result: 'tools',
  web_fetch_tool_result: 'tools',
  code_execution_tool_result: 'tools',
  bash_code_execution_tool_result: 'tools',
  text_editor_code_execution_tool_result: 'tools',
  tool_search_tool_result: 'tools',
  mcp_tool_use: 'tools',
  mcp_tool_result: 'tools',
  container_upload: 'tools',
};

/** Claude Code sends `system` turns inside `messages` too. */
const roles = new Set(['user', 'assistant', 'system']);

const message: Walker = (value, param, scan) => {
  if (!isRecord(value)) return;
  if (!(typeof value.role === 'string' && roles.has(value.role))) scan.unknown.push(`${param}.role`);
  eachOfType(contentBlocks)(value.content, `${param}.content`, scan);
};

/**
 * Tool kinds, without their version date (`web_search_20250305` → `web_search`): a client tool (no type,
 * or `custom`) and the server and schema-less client tools Anthropic defines. All of them are tools.
 */
const toolKinds: TypeTable = {
  custom: 'tools',
  web_search: 'tools',
  web_fetch: 'tools',
  bash: 'tools',
  computer: 'tools',
  text_editor: 'tools',
  code_execution: 'tools',
  memory: 'tools',
  tool_search_tool_regex: 'tools',
  tool_search_tool_bm25: 'tools',
  mcp_toolset: 'tools',
};

const toolKind = (tool: Record<string, unknown>): unknown => {
  if (!isSet(tool.type)) return 'custom';
  return typeof tool.type === 'string' ? tool.type.replace(/_\d{8}$/, '') : tool.type;
};

/** Thinking asks for reasoning unless it is turned off; its budget is output tokens too. */
const thinking: Walker = (value, param, scan) => {
  if (isRecord(value) && value.type === 'disabled') return;
  useCapability(scan, 'reasoning', param);
  if (isRecord(value)) outputTokens('reasoning_budget')(value.budget_tokens, `${param}.budget_tokens`, scan);
};

const outputConfig: FieldTable = { effort: 'reasoning', format: 'json_schema' };

const topLevel: FieldTable = {
  model: 'none',
  messages: eachItem(message),
  system: eachOfType({ text: 'none' }),
  max_tokens: outputTokens('max_output'),
  // Sampling, transport and bookkeeping settings: they shape an answer, they do not widen what it may use.
  stop_sequences: 'none',
  stream: 'none',
  temperature: 'none',
  top_k: 'none',
  top_p: 'none',
  metadata: 'none',
  service_tier: serviceTier,
  // Claude Code's clearing of old tool results and thinking: it only removes context.
  context_management: 'none',
  tools: (value, param, scan) => scanToolList(value, param, toolKinds, scan, { typeOf: toolKind }),
  tool_choice: toolChoice(['auto', 'none']),
  mcp_servers: 'tools',
  // The code execution tool's sandbox (and the skills loaded into it).
  container: 'tools',
  thinking,
  output_config: (value, param, scan) => scanFields(value, param, outputConfig, scan),
  // The structured-outputs beta's spelling of output_config.format.
  output_format: 'json_schema',
};

export function scanAnthropicMessages(body: Record<string, unknown>, scan: WireScan): void {
  scanFields(body, '', topLevel, scan);
}

/** How the permissions read a raw anthropic-messages body (access/wire-scan/wire-scan.ts). */
export const anthropicMessagesWireScanner: WireScanner = { body: scanAnthropicMessages };
