import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayApiError } from './gateway-api-error.js';
import { parseSse, type SseEvent } from './parse-sse.js';
import { streamEvents } from './stream-events.js';

const encoder = new TextEncoder();

/** A body that delivers `bytes` in reads of at most `size` bytes, recording whether it was cancelled. */
function bodyOf(text: string | Uint8Array, size = Number.MAX_SAFE_INTEGER): ReadableStream<Uint8Array> & { cancelled: boolean } {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const state = Object.assign(stream, { cancelled: false });
  return state;
}

async function drain(items: AsyncIterable<unknown>): Promise<void> {
  for await (const item of items) void item;
}

async function collect<T>(events: AsyncIterable<SseEvent<T>>): Promise<SseEvent<T>[]> {
  const all: SseEvent<T>[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('parseSse', () => {
  test('parses LF, CRLF and CR line endings alike', async () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `data: {"n":1}${eol}${eol}event: ping${eol}data: {"n":2}${eol}${eol}`;
      assert.deepEqual(await collect(parseSse(bodyOf(text))), [{ data: { n: 1 } }, { event: 'ping', data: { n: 2 } }], JSON.stringify(eol));
    }
  });

  test('joins multi-line data with a line feed before parsing', async () => {
    const text = 'data: {"text":\ndata:  "two lines",\r\ndata: "n": 3}\n\n';
    assert.deepEqual(await collect(parseSse(bodyOf(text))), [{ data: { text: 'two lines', n: 3 } }]);
  });

  test('reassembles frames split across reads, even inside a multi-byte character', async () => {
    const text = 'id: 7\nevent: content_block_delta\ndata: {"text":"héllo → 世界 🎉"}\n\ndata: {"n":2}\n\n';
    for (const size of [1, 2, 3, 5, 7]) {
      const events = await collect(parseSse(bodyOf(text, size)));
      assert.deepEqual(events, [{ event: 'content_block_delta', id: '7', data: { text: 'héllo → 世界 🎉' } }, { data: { n: 2 } }], `reads of ${size}`);
    }
  });

  test('keeps U+2028 and U+2029 inside a JSON string in their frame', async () => {
    const content = 'line\u2028separator\u2029paragraph\u0085next';
    const text = `data: ${JSON.stringify({ content })}\n\ndata: {"n":2}\n\n`;
    assert.ok(text.includes('\u2028'), 'JSON.stringify leaves U+2028 raw');
    for (const size of [1, 4, 1024]) {
      assert.deepEqual(await collect(parseSse(bodyOf(text, size))), [{ data: { content } }, { data: { n: 2 } }]);
    }
  });

  test('ignores comments, unknown fields and frames without data', async () => {
    const text = ': keep-alive\n\nevent: nothing\n\nfoo: bar\nretry: soon\ndata: {"n":1}\n\n';
    assert.deepEqual(await collect(parseSse(bodyOf(text))), [{ data: { n: 1 } }]);
  });

  test('stops at [DONE] and cancels the rest of the body', async () => {
    const body = bodyOf('data: {"n":1}\n\ndata: [DONE]\n\ndata: {"n":2}\n\n', 8);
    assert.deepEqual(await collect(parseSse(body)), [{ data: { n: 1 } }]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(body.cancelled, true);
  });

  test('ends with the body when there is no [DONE], as Gemini and Anthropic streams do', async () => {
    assert.deepEqual(await collect(parseSse(bodyOf('data: {"n":1}\n\ndata: {"n":2}\n\n'))), [{ data: { n: 1 } }, { data: { n: 2 } }]);
  });

  test('drops an unterminated last frame, as the SSE spec says', async () => {
    assert.deepEqual(await collect(parseSse(bodyOf('data: {"n":1}\n\ndata: {"n":2}'))), [{ data: { n: 1 } }]);
  });

  test('cancels the body when the consumer stops early', async () => {
    const body = bodyOf('data: {"n":1}\n\ndata: {"n":2}\n\n', 4);
    for await (const event of parseSse(body)) {
      assert.deepEqual(event.data, { n: 1 });
      break;
    }
    // The cancel travels back through the decoding pipe on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(body.cancelled, true);
  });

  test('throws a typed error for an OpenAI error frame after the events before it', async () => {
    const error = { error: { message: 'Upstream failed.', type: 'upstream_error', param: null, code: 'upstream_error' } };
    const seen: unknown[] = [];
    const caught = await (async () => {
      for await (const event of parseSse(bodyOf(`data: {"n":1}\n\ndata: ${JSON.stringify(error)}\n\ndata: {"n":2}\n\n`))) seen.push(event.data);
    })().catch((thrown: unknown) => thrown);
    assert.deepEqual(seen, [{ n: 1 }]);
    assert.ok(caught instanceof GatewayApiError);
    assert.equal(caught.status, undefined);
    assert.deepEqual(caught.body, error);
    assert.equal(caught.code, 'upstream_error');
    assert.equal(caught.type, 'upstream_error');
    assert.match(caught.message, /Upstream failed/);
  });

  test('throws for an Anthropic `event: error` and a Gemini error frame', async () => {
    const anthropic = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    await assert.rejects(collect(parseSse(bodyOf(anthropic))), (thrown) => thrown instanceof GatewayApiError && thrown.type === 'overloaded_error');
    const gemini = 'data: {"error":{"code":500,"message":"Internal error.","status":"INTERNAL"}}\n\n';
    await assert.rejects(collect(parseSse(bodyOf(gemini))), (thrown) => thrown instanceof GatewayApiError && thrown.type === 'INTERNAL');
  });

  test('does not mistake a null or nested error for an error frame', async () => {
    const text = 'data: {"error":null,"n":1}\n\ndata: {"type":"response.created","response":{"error":null}}\n\n';
    assert.equal((await collect(parseSse(bodyOf(text)))).length, 2);
  });

  test('rejects a frame that is not JSON', async () => {
    await assert.rejects(collect(parseSse(bodyOf('data: not json\n\n'))), SyntaxError);
  });
});

describe('streamEvents', () => {
  test('throws the status and parsed body of a non-2xx answer before reading any event', async () => {
    const body = { error: { message: "The model 'nope' does not exist.", type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };
    const response = new Response(JSON.stringify(body), { status: 404, headers: { 'x-request-id': 'req_1' } });
    const caught = await drain(streamEvents({ error: body, response })).catch((thrown: unknown) => thrown);
    assert.ok(caught instanceof GatewayApiError);
    assert.equal(caught.status, 404);
    assert.equal(caught.requestId, 'req_1');
    assert.equal(caught.param, 'model');
    assert.equal(caught.code, 'model_not_found');
  });

  test('yields the data of each event', async () => {
    const data = bodyOf('data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n');
    const all: unknown[] = [];
    for await (const item of streamEvents<{ n: number }>({ data, response: new Response(null, { status: 200 }) })) all.push(item);
    assert.deepEqual(all, [{ n: 1 }, { n: 2 }]);
  });
});
