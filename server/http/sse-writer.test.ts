import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import type { Response } from 'express';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseWriter } from './sse-writer.js';

/** What an SSE client (eventsource-parser, as the SDKs parse) reads from a response written by `write`. */
async function readEvents(write: (writer: SseWriter) => Promise<void>): Promise<EventSourceMessage[]> {
  const server = createServer((_req, res) => {
    const writer = new SseWriter(res as unknown as Response);
    void write(writer).then(() => writer.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(await response.text());
    return events;
  } finally {
    server.close();
  }
}

it('a passed-through frame that spans lines reaches the client whole, each line its own data: line', async () => {
  const pretty = JSON.stringify({ type: 'content_block_delta', delta: { text: 'a\nb' } }, null, 2);
  const events = await readEvents(async (writer) => {
    await writer.send(pretty, 'content_block_delta');
    await writer.send('{"crlf":\r\n1}');
    await writer.send({ plain: 'line\nbreak inside a string' });
  });
  assert.deepEqual(
    events.map((event) => [event.event, JSON.parse(event.data)]),
    [
      ['content_block_delta', { type: 'content_block_delta', delta: { text: 'a\nb' } }],
      [undefined, { crlf: 1 }],
      [undefined, { plain: 'line\nbreak inside a string' }],
    ],
  );
});
