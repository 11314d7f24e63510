/**
 * The internal representation every client protocol converts into and every upstream provider converts
 * out of: N protocol converters plus M provider converters instead of N × M translations.
 *
 * Field names are the gateway's own (camelCase); wire names stay in the protocol and provider folders.
 */

/** Where the bytes of an image or file come from. */
export type MediaSource =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; mediaType: string; data: string };

/** Anthropic-style prompt-cache hint, carried so a round trip through us does not lose it. */
export interface CacheHint {
  type: 'ephemeral';
  ttl?: string;
}

export type ContentPart =
  | { type: 'text'; text: string; cache?: CacheHint }
  | { type: 'image'; source: MediaSource; detail?: 'auto' | 'low' | 'high'; cache?: CacheHint }
  | { type: 'file'; source: MediaSource; filename?: string; cache?: CacheHint }
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart;

export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  /** The arguments as the JSON text the model produced (kept verbatim: it may not parse). */
  arguments: string;
  /** Gemini's `thoughtSignature` on a `functionCall` part: Gemini 3 refuses the next turn without it. */
  signature?: string;
  cache?: CacheHint;
}

export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  /** Tool results are text or multimodal parts, as Anthropic and Responses allow. */
  content: Array<Extract<ContentPart, { type: 'text' | 'image' | 'file' }>>;
  isError?: boolean;
  /** Gemini matches results by function name rather than call ID. */
  name?: string;
  cache?: CacheHint;
}

export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Anthropic's thinking signature / Gemini's thought signature: must return to the same upstream. */
  signature?: string;
  /** Reasoning the upstream gave us only in encrypted/redacted form. */
  redacted?: string;
}

/**
 * `system`: an instruction given mid-conversation (Anthropic's `role: "system"` messages, OpenAI's later
 * `system`/`developer` messages). Its content is text only. Upstreams that take instructions only up front
 * fold it into them (core/fold-system-messages.ts).
 */
export type Role = 'user' | 'assistant' | 'system';

export interface Message {
  role: Role;
  content: ContentPart[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

/** One system or developer instruction; Anthropic lets each carry its own cache hint. */
export interface Instruction {
  text: string;
  cache?: CacheHint;
}

export interface ModelRequest {
  /** The gateway model ID the client asked for. */
  model: string;
  /** System and developer instructions, in order. */
  instructions: Instruction[];
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat: ResponseFormat;
  maxOutputTokens?: number;
  /**
   * The most tokens, reasoning included, that the caller's permissions let any upstream be asked for
   * (`max_output_tokens`). Converters that widen an upstream's limit to make room for a thinking budget
   * (Anthropic's `max_tokens`, Gemini's `thinkingBudget`) stay within it.
   */
  outputTokenCeiling?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  /**
   * Ask for visible reasoning. `effort` is OpenAI's scale (minimal … high); `budgetTokens` is Anthropic's and
   * Gemini's. Each provider converts whichever it was not given.
   */
  reasoning?: { effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'; budgetTokens?: number };
  user?: string;
  metadata?: Record<string, string>;
}

/**
 * Why generation ended. `stop_sequence` is kept apart from `stop` because Anthropic reports it (with the
 * sequence) and OpenAI folds it into `stop`.
 */
export type FinishReason = 'stop' | 'stop_sequence' | 'length' | 'tool_calls' | 'content_filter' | 'refusal';

export interface Usage {
  /** All prompt tokens, cached ones included (OpenAI's meaning). */
  inputTokens: number;
  cachedInputTokens: number;
  /** All generated tokens, reasoning included. */
  outputTokens: number;
  reasoningTokens: number;
  /** Anthropic's `cache_creation_input_tokens`: prompt tokens written to the cache (part of inputTokens). */
  cacheWriteInputTokens?: number;
  /**
   * Of the cache writes, those to the 1-hour cache (Anthropic's `cache_creation.ephemeral_1h_input_tokens`),
   * which cost more than the 5-minute ones; the rest of cacheWriteInputTokens went to the 5-minute cache.
   */
  cacheWrite1hInputTokens?: number;
  /** Audio tokens of the prompt (part of inputTokens) and of the answer (part of outputTokens). */
  audioInputTokens?: number;
  audioOutputTokens?: number;
  /**
   * The `service_tier` the upstream reports having served the request at (OpenAI's `default`, `flex`,
   * `priority`; Anthropic's `standard`, `priority`, `batch`), which is what it bills.
   */
  serviceTier?: string;
  /** True when the numbers are our estimate rather than the upstream's count. */
  estimated?: boolean;
}

export type StreamEvent =
  | { type: 'start'; id?: string }
  | { type: 'text_delta'; text: string }
  /** Reasoning text, or (with empty text) its signature or redacted payload as Anthropic sends them. */
  | { type: 'reasoning_delta'; text: string; signature?: string; redacted?: string }
  /** `index` numbers the tool calls of this answer from 0, whatever the upstream numbered them. */
  | { type: 'tool_call_start'; index: number; id: string; name: string; signature?: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'tool_call_end'; index: number }
  | { type: 'finish'; reason: FinishReason; stopSequence?: string }
  /** May come more than once (Gemini repeats it cumulatively); the last one counts. */
  | { type: 'usage'; usage: Usage };

/** A whole, non-streamed answer. */
export interface ModelResponse {
  id?: string;
  content: Array<Extract<ContentPart, { type: 'text' | 'tool_call' | 'reasoning' }>>;
  finishReason: FinishReason;
  stopSequence?: string;
  usage: Usage;
}
