import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { readSse } from './read-sse.js';

const collect = async (chunks: string[]) => {
  const events = [];
  for await (const event of readSse(asAsync(chunks.map((chunk) => new TextEncoder().encode(chunk))))) events.push(event);
  return events;
};

test('events split across network chunks, and CRLF framing, come out whole', async () => {
  const events = await collect(['event: message_start\nda', 'ta: {"a":1}\n', '\ndata: {"b":', '2}\r\n\r\n']);
  assert.deepEqual(events, [{ event: 'message_start', data: '{"a":1}' }, { data: '{"b":2}' }]);
});

test('a multi-byte character split between chunks is decoded once', async () => {
  const bytes = new TextEncoder().encode('data: "é"\n\n');
  const events = [];
  for await (const event of readSse(asAsync([bytes.slice(0, 8), bytes.slice(8)]))) events.push(event);
  assert.deepEqual(events, [{ data: '"é"' }]);
});

test('a last event without the closing blank line still counts', async () => {
  assert.deepEqual(await collect(['data: 1\n\ndata: 2']), [{ data: '1' }, { data: '2' }]);
});

test('U+2028 inside data does not split the event (a trap for line-splitting parsers)', async () => {
  assert.deepEqual(await collect(['data: {"t":"a\u2028b"}\n\n']), [{ data: '{"t":"a\u2028b"}' }]);
});
