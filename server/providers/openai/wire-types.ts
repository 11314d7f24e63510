/**
 * The upstream side of Chat Completions, kept apart from the client-side types generated from our spec:
 * what we send is exact, what we read is minimal and tolerant (`?` and `null` everywhere), because
 * OpenAI-compatible servers fill in only part of OpenAI's shape.
 * https://platform.openai.com/docs/api-reference/chat/create
 */

export type ChatUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'file'; file: { file_data: string; filename?: string } };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatWireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatUserPart[] }
  | { role: 'assistant'; content?: string; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatWireTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
}

export type ChatWireToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type ChatWireResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean; description?: string } };

/** The body the translation path sends: always streamed. */
export interface ChatRequestBody {
  model: string;
  messages: ChatWireMessage[];
  stream: true;
  stream_options?: { include_usage: boolean };
  tools?: ChatWireTool[];
  tool_choice?: ChatWireToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ChatWireResponseFormat;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  user?: string;
  metadata?: Record<string, string>;
  reasoning_effort?: string;
}

/** `usage` as OpenAI sends it; compatible servers often omit the details objects. */
export interface ChatWireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface ChatToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

export interface ChatDelta {
  content?: string | null;
  refusal?: string | null;
  /** DeepSeek and vLLM (older) name reasoning text `reasoning_content`… */
  reasoning_content?: string | null;
  /** …OpenRouter, Ollama and newer vLLM name it `reasoning`. */
  reasoning?: string | null;
  tool_calls?: ChatToolCallDelta[] | null;
}

export interface ChatChunk {
  id?: string | null;
  choices?: Array<{ index?: number | null; delta?: ChatDelta | null; finish_reason?: string | null }> | null;
  usage?: ChatWireUsage | null;
  /** Groq also reports usage here on the last chunk. */
  x_groq?: { usage?: ChatWireUsage | null } | null;
  /** A mid-stream failure: `{error: {message, type, code}}`. */
  error?: unknown;
}
