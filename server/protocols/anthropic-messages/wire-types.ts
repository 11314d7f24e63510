import type { components } from '../../../generated/api.js';

/** Anthropic Messages wire types, straight from the spec. */
type Schemas = components['schemas'];

export type MessagesCreateRequest = Schemas['AnthropicCreateMessageRequest'];
export type MessagesCountTokensRequest = Schemas['AnthropicCountTokensRequest'];
/** What both operations share, with the create-only fields optional: one converter serves both. */
export type MessagesRequestBody = MessagesCountTokensRequest &
  Partial<Pick<MessagesCreateRequest, 'max_tokens' | 'stop_sequences' | 'stream' | 'temperature' | 'top_p' | 'top_k' | 'metadata'>>;

export type MessagesInputMessage = Schemas['AnthropicInputMessage'];
export type MessagesTextBlockParam = Schemas['AnthropicTextBlockParam'];
export type MessagesImageBlockParam = Schemas['AnthropicImageBlockParam'];
export type MessagesDocumentBlockParam = Schemas['AnthropicDocumentBlockParam'];
export type MessagesToolResultBlockParam = Schemas['AnthropicToolResultBlockParam'];
export type MessagesCacheControl = Schemas['AnthropicCacheControl'];
export type MessagesTool = Schemas['AnthropicTool'];
export type MessagesToolUnion = Schemas['AnthropicToolUnion'];
export type MessagesToolChoice = Schemas['AnthropicToolChoice'];
export type MessagesThinkingConfig = Schemas['AnthropicThinkingConfig'];
export type MessagesOutputConfig = Schemas['AnthropicOutputConfig'];

/**
 * The block types the gateway translates. The spec also admits any other `type` (server tool blocks and
 * the like, for Anthropic upstreams), whose `type: string` would defeat narrowing on `type`.
 */
export type KnownBlockParam =
  | MessagesTextBlockParam
  | MessagesImageBlockParam
  | MessagesDocumentBlockParam
  | Schemas['AnthropicToolUseBlockParam']
  | MessagesToolResultBlockParam
  | Schemas['AnthropicThinkingBlock']
  | Schemas['AnthropicRedactedThinkingBlock'];

export type MessagesMessage = Schemas['AnthropicMessage'];
export type MessagesStopReason = Schemas['AnthropicStopReason'];
export type MessagesUsage = Schemas['AnthropicUsage'];
export type MessagesMessageDeltaUsage = Schemas['AnthropicMessageDeltaUsage'];
/** The blocks a translated answer is made of (never the pass-through-only kinds). */
export type MessagesContentBlock =
  | Schemas['AnthropicTextBlock']
  | Schemas['AnthropicToolUseBlock']
  | Schemas['AnthropicThinkingBlock']
  | Schemas['AnthropicRedactedThinkingBlock'];
export type MessagesStreamEvent = Schemas['AnthropicStreamEvent'];
export type MessagesCountTokensResponse = Schemas['AnthropicCountTokensResponse'];
