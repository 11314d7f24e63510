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
}

export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  /** Tool results are text or multimodal parts, as Anthropic and Responses allow. */
  content: Array<Extract<ContentPart, { type: 'text' | 'image' | 'file' }>>;
  isError?: boolean;
  /** Gemini matches results by function name rather than call ID. */
  name?: string;
}

export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Anthropic's thinking signature / Gemini's thought signature: must return to the same upstream. */
  signature?: string;
  /** Reasoning the upstream gave us only in encrypted/redacted form. */
  redacted?: string;
}

export type Role = 'user' | 'assistant';

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

export interface ModelRequest {
  /** The gateway model ID the client asked for. */
  model: string;
  /** System and developer instructions, in order. */
  instructions: string[];
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat: ResponseFormat;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences: string[];
  seed?: number;
  reasoning?: { effort?: string; budgetTokens?: number };
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
  /** True when the numbers are our estimate rather than the upstream's count. */
  estimated?: boolean;
}

export type StreamEvent =
  | { type: 'start'; id?: string }
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string; signature?: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'tool_call_end'; index: number }
  | { type: 'finish'; reason: FinishReason; stopSequence?: string }
  | { type: 'usage'; usage: Usage };

/** A whole, non-streamed answer. */
export interface ModelResponse {
  id?: string;
  content: Array<Extract<ContentPart, { type: 'text' | 'tool_call' | 'reasoning' }>>;
  finishReason: FinishReason;
  stopSequence?: string;
  usage: Usage;
}
