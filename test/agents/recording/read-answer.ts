/**
 * Reads a gateway answer in any of the four protocols, JSON or event stream, into what it says: its text and
 * the names of the tools it calls. Streams are checked on the way with the suite's own stream checks (framing,
 * order and the contract's event schemas); JSON answers the gateway already validated against the contract.
 */
import assert from 'node:assert/strict';
import type { components } from '../../../generated/api.js';
import { assertAnthropicStream, parseAnthropicSse } from '../../helpers/anthropic-stream.js';
import { assertMatchesSchema } from '../../helpers/contract-schemas.js';
import { chunkText, parseGeminiSse, type GeminiChunk } from '../../helpers/gemini-sse.js';
import { assertResponsesStream, parseResponsesSse, terminalResponse, type ResponsesResponse } from '../../helpers/responses-stream.js';
import type { ScriptedProtocol } from '../scripted-upstream/start-scripted-upstream.js';

type Schemas = components['schemas'];

export interface Answer {
  text: string;
  toolCalls: string[];
}

export function readAnswer(protocol: ScriptedProtocol, body: string, contentType: string): Answer {
  const stream = contentType.startsWith('text/event-stream');
  switch (protocol) {
    case 'openai-chat':
      return stream ? readChatStream(body) : readChatJson(JSON.parse(body) as Schemas['ChatCompletion']);
    case 'openai-responses':
      return readResponse(stream ? terminalResponse(assertResponsesStream(parseResponsesSse(body))) : (JSON.parse(body) as ResponsesResponse));
    case 'anthropic-messages':
      return stream ? readMessagesStream(body) : readMessage(JSON.parse(body) as Schemas['AnthropicMessage']);
    case 'gemini':
      return readGeminiChunks(stream ? parseGeminiSse(body) : [JSON.parse(body) as GeminiChunk].flat());
  }
}

function readChatJson(completion: Schemas['ChatCompletion']): Answer {
  const message = completion.choices[0]?.message;
  return { text: message?.content ?? '', toolCalls: (message?.tool_calls ?? []).map((call) => ('function' in call ? call.function.name : '')) };
}

function readChatStream(body: string): Answer {
  assert.ok(body.endsWith('data: [DONE]\n\n'), 'a Chat Completions stream ends with data: [DONE]');
  const chunks = body
    .slice(0, -'data: [DONE]\n\n'.length)
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      assert.ok(frame.startsWith('data: '), `data-only frames: ${frame.slice(0, 200)}`);
      const chunk = JSON.parse(frame.slice('data: '.length)) as Schemas['ChatCompletionChunk'];
      assertMatchesSchema('ChatCompletionChunk', chunk);
      return chunk;
    });
  assert.equal(chunks.filter((chunk) => chunk.choices[0]?.finish_reason).length, 1, 'one chunk carries finish_reason');
  const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
  return {
    text: deltas.map((delta) => delta.content ?? '').join(''),
    toolCalls: deltas.flatMap((delta) => delta.tool_calls ?? []).flatMap((call) => (call.function?.name ? [call.function.name] : [])),
  };
}

function readResponse(response: ResponsesResponse): Answer {
  const text = response.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : [])).join('');
  // Read loosely: which call item types the contract knows grows with the Responses tools it accepts.
  const toolCalls = (response.output as Array<{ type: string; name?: string }>).flatMap((item) => (item.type.endsWith('_call') && item.name ? [item.name] : []));
  return { text, toolCalls };
}

function readMessage(message: Schemas['AnthropicMessage']): Answer {
  return {
    text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [String(block.name)] : [])),
  };
}

function readMessagesStream(body: string): Answer {
  const events = assertAnthropicStream(parseAnthropicSse(body));
  const last = events.at(-1);
  assert.notEqual(last?.type, 'error', `the stream ends in an error: ${JSON.stringify(last)}`);
  return {
    text: events.map((event) => (event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '')).join(''),
    toolCalls: events.flatMap((event) => (event.type === 'content_block_start' && event.content_block.type === 'tool_use' ? [String(event.content_block.name)] : [])),
  };
}

function readGeminiChunks(chunks: GeminiChunk[]): Answer {
  return {
    text: chunks.map(chunkText).join(''),
    toolCalls: chunks.flatMap((chunk) => (chunk.candidates?.[0]?.content?.parts ?? []).flatMap((part) => (part.functionCall?.name ? [part.functionCall.name] : []))),
  };
}
