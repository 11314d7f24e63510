/**
 * The upstream side of Chat Completions, kept apart from the client-side types generated from our spec:
 * what we send, exactly. What we read back is checked by stream-schemas.ts.
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

/** What is read back is described by the schemas in stream-schemas.ts; the pass-through names its usage type here. */
export type { ChatWireUsage } from './stream-schemas.js';
