import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { assertMatchesSchema } from '../contract-schemas.js';
import type { ClientProtocol } from './client-calls.js';

/** The spec's error schema (every key the SDKs read), and a message that says something. */
function assertOpenAiError(body: unknown, context: string): void {
  assertMatchesSchema('OpenAIError', body);
  assert.ok((body as { error: { message: string } }).error.message.length > 0, context);
}

function assertAnthropicError(body: unknown): void {
  assertMatchesSchema('AnthropicError', body);
}

/** The spec's schema, with `code` the HTTP status when there is one and `status` a google.rpc code name. */
function assertGeminiError(body: unknown, context: string, status?: number): void {
  assertMatchesSchema('GeminiError', body);
  const error = (body as { error: { code: number; status: string } }).error;
  if (status !== undefined) assert.equal(error.code, status, `${context}: error.code is the HTTP status`);
  assert.match(error.status, /^[A-Z_]+$/, `${context}: error.status is a google.rpc code name`);
}

/** A JSON error response in the client protocol's own shape. */
export function assertErrorBody(protocol: ClientProtocol, status: number, headers: IncomingHttpHeaders, text: string, context: string): void {
  assert.match(String(headers['content-type']), /^application\/json/, `${context}: content-type`);
  const body = JSON.parse(text) as unknown;
  if (protocol === 'anthropic-messages') assertAnthropicError(body);
  else if (protocol === 'gemini') assertGeminiError(body, context, status);
  else assertOpenAiError(body, context);
}

function parseEvents(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

/**
 * A stream that started and then failed: JSON events, then the protocol's error event, the last one but
 * for the Responses API's `response.failed`. Having read the text to its end already proved that the
 * response ended cleanly rather than being cut.
 */
export function assertStreamEndsWithError(protocol: ClientProtocol, text: string, context: string): void {
  const events = parseEvents(text);
  assert.ok(events.length >= 2, `${context}: at least one event before the error`);
  // A garbled upstream frame must not be passed on: every event the client got is JSON.
  for (const event of events) assert.doesNotThrow(() => JSON.parse(event.data), `${context}: event ${event.data.slice(0, 80)}`);
  // The Responses API follows its `error` event with `response.failed`, the stream's terminal event.
  const failedAfter = protocol === 'openai-responses' && events.at(-1)?.event === 'response.failed';
  const last = events.at(failedAfter ? -2 : -1)!;
  const data = JSON.parse(last.data) as Record<string, unknown>;
  switch (protocol) {
    case 'openai-chat':
      assert.equal(last.event, undefined, context);
      return assertOpenAiError(data, context);
    case 'openai-responses':
      assert.equal(last.event, 'error', context);
      assertMatchesSchema('ResponsesErrorEvent', data);
      assert.equal(typeof data.message, 'string', context);
      return assertOpenAiError(data, context);
    case 'anthropic-messages':
      assert.equal(last.event, 'error', context);
      return assertAnthropicError(data);
    case 'gemini':
      assert.equal(last.event, undefined, context);
      return assertGeminiError(data, context);
  }
}
