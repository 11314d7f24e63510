import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { Response } from 'express';
import { JsonArrayWriter } from './json-array-writer.js';

/** A server whose one response is written by `write`; resolves with what a client read, piece by piece. */
async function serve(write: (writer: JsonArrayWriter) => Promise<void>): Promise<{ pieces: string[]; headers: Headers }> {
  const server = createServer((_req, res) => {
    const writer = new JsonArrayWriter(res as unknown as Response);
    void write(writer).then(() => writer.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(decoder.decode(read.value));
    return { pieces, headers: response.headers };
  } finally {
    server.close();
  }
}

describe('JsonArrayWriter', () => {
  it('writes a valid JSON array element by element, strings verbatim', async () => {
    const { pieces, headers } = await serve(async (writer) => {
      await writer.send({ a: 1 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      await writer.send('{"b": 2}');
    });
    assert.match(headers.get('content-type') ?? '', /^application\/json/);
    const body = pieces.join('');
    assert.deepEqual(JSON.parse(body), [{ a: 1 }, { b: 2 }]);
    assert.ok(pieces.length >= 2, `arrived in several pieces: ${JSON.stringify(pieces)}`);
    assert.ok(pieces[0]!.startsWith('['));
  });

  it('an empty stream is an empty array', async () => {
    const { pieces } = await serve(async () => {});
    assert.deepEqual(JSON.parse(pieces.join('')), []);
  });
});
