import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ClientProtocol } from './client-calls.js';

/** `{error:{message,type,param,code}}` with every key present, as the OpenAI SDKs read it. */
function assertOpenAiError(body: unknown, context: string): void {
  const error = (body as { error?: Record<string, unknown> }).error;
  assert.ok(error, `${context}: no error object`);
  assert.equal(typeof error.message, 'string', context);
  assert.ok((error.message as string).length > 0, context);
  assert.equal(typeof error.type, 'string', context);
  assert.ok('param' in error && (error.param === null || typeof error.param === 'string'), `${context}: param`);
  assert.ok('code' in error && (error.code === null || typeof error.code === 'string'), `${context}: code`);
}

function assertAnthropicError(body: unknown, context: string): void {
  const { type, error } = body as { type?: unknown; error?: { type?: unknown; message?: unknown } };
  assert.equal(type, 'error', context);
  assert.equal(typeof error?.type, 'string', context);
  assert.equal(typeof error?.message, 'string', context);
}

function assertGeminiError(body: unknown, context: string, status?: number): void {
  const error = (body as { error?: { code?: unknown; message?: unknown; status?: unknown } }).error;
  assert.equal(typeof error?.code, 'number', context);
  if (status !== undefined) assert.equal(error?.code, status, `${context}: error.code is the HTTP status`);
  assert.equal(typeof error?.message, 'string', context);
  assert.match(String(error?.status), /^[A-Z_]+$/, `${context}: error.status is a google.rpc code name`);
}

/** A JSON error response in the client protocol's own shape. */
export function assertErrorBody(protocol: ClientProtocol, status: number, headers: IncomingHttpHeaders, text: string, context: string): void {
  assert.match(String(headers['content-type']), /^application\/json/, `${context}: content-type`);
  const body = JSON.parse(text) as unknown;
  if (protocol === 'anthropic-messages') assertAnthropicError(body, context);
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
      assert.equal(data.type, 'error', context);
      assert.equal(typeof data.message, 'string', context);
      return assertOpenAiError(data, context);
    case 'anthropic-messages':
      assert.equal(last.event, 'error', context);
      return assertAnthropicError(data, context);
    case 'gemini':
      assert.equal(last.event, undefined, context);
      return assertGeminiError(data, context);
  }
}
