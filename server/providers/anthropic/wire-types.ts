/**
 * The slice of Anthropic's Messages wire format this provider writes (https://docs.anthropic.com/en/api/messages).
 * Deliberately minimal: only the fields we set. What we read back is checked by stream-schemas.ts.
 */

/** `{type:'ephemeral'}` marks the end of a cacheable prefix; `ttl` is `5m` (default) or `1h`. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

/** PDFs come as base64 or URL; plain text is sent as text (`data` is the decoded text, not base64). */
export type AnthropicDocumentSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'text'; media_type: 'text/plain'; data: string }
  | { type: 'url'; url: string };

export interface AnthropicDocumentBlock {
  type: 'document';
  source: AnthropicDocumentSource;
  title?: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** The POST /v1/messages body. */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: AnthropicTextBlock[];
  stream: true;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number };
  metadata?: { user_id: string };
}

/** What is read back is described by the schemas in stream-schemas.ts; the pass-through names its usage type here. */
export type { AnthropicUsage } from './stream-schemas.js';
