// JSON bodies: the common case is read by the gateway's own reader (server/http/json-body.ts), everything
// else by body-parser; both must give the same answers, and a refused body must leave the connection usable.
import assert from 'node:assert/strict';
import { request, Agent } from 'node:http';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
before(async () => (gateway = await startGateway()));
after(async () => {
  agent.destroy();
  await gateway.close();
});

const chat = JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hello body' }] });

/** POSTs to chat completions over one kept-alive socket; `parts` are written one by one (chunked unless a length is set). */
function post(parts: Array<string | Buffer>, headers: Record<string, string>): Promise<{ status: number; body: any; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.origin}/v1/chat/completions`, { method: 'POST', agent, headers: { authorization: `Bearer ${gateway.apiKey}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), socket: req.socket }));
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

test('a body with a length and one sent in chunks are both read', async () => {
  const sized = await post([chat], { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(chat)) });
  assert.equal(sized.status, 200);
  const chunked = await post([chat.slice(0, 20), chat.slice(20)], { 'content-type': 'Application/JSON; charset=UTF-8' });
  assert.equal(chunked.status, 200);
  assert.match(chunked.body.choices[0].message.content, /hello body/);
});

test('compressed bodies and other JSON media types still go through body-parser', async () => {
  const gzipped = await post([gzipSync(chat)], { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  assert.equal(gzipped.status, 200);
  const vendor = await post([chat], { 'content-type': 'application/vnd.example+json' });
  assert.equal(vendor.status, 415, 'the contract only takes application/json');
});

test('a body over the limit is refused with 413 whether or not its length was declared, and the connection still serves', async () => {
  const big = JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] });
  const declared = await post([big], { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) });
  assert.equal(declared.status, 413);
  assert.equal(declared.body.error.type, 'invalid_request_error');
  const chunked = await post([big.slice(0, 1024 * 1024), big.slice(1024 * 1024)], { 'content-type': 'application/json' });
  assert.equal(chunked.status, 413);
  const after = await post([chat], { 'content-type': 'application/json' });
  assert.equal(after.status, 200);
  assert.equal(after.socket, chunked.socket, 'the same kept-alive socket');
});

test('bodies that are not a JSON object are 400s that say so', async () => {
  for (const text of ['{"model": ', '"just a string"', '  ']) {
    const answer = await post([text], { 'content-type': 'application/json' });
    assert.equal(answer.status, 400, text);
    assert.equal(answer.body.error.code, 'invalid_json', text);
    assert.match(answer.body.error.message, /^The request body is not valid JSON: /, text);
  }
  const empty = await post([''], { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  assert.equal(empty.status, 400);
  assert.match(empty.body.error.message, /model/, 'an empty body reads as {}, and the contract names what is missing');
});

/** The two readers: the gateway's own (plain JSON) and body-parser (here for a compressed body). */
const readers: Array<{ headers: Record<string, string>; encode: (text: string | Buffer) => Buffer }> = [
  { headers: { 'content-type': 'application/json' }, encode: (text) => Buffer.from(text) },
  { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, encode: (text) => gzipSync(text) },
];

test('bytes that are not UTF-8 are refused by either reader, not decoded to U+FFFD', async () => {
  const [before, after] = chat.split('hello body');
  // A lone continuation byte and an overlong encoding of '/': neither is UTF-8.
  for (const bad of [Buffer.from([0x80]), Buffer.from([0xc0, 0xaf])]) {
    for (const { headers, encode } of readers) {
      const answer = await post([encode(Buffer.concat([Buffer.from(before!), bad, Buffer.from(after!)]))], headers);
      assert.equal(answer.status, 400, JSON.stringify(headers));
      assert.equal(answer.body.error.code, 'invalid_json');
      assert.match(answer.body.error.message, /not valid UTF-8/);
    }
  }
});

test('a declared charset other than UTF-8 is a 415 naming it, even for bytes that would decode to nothing', async () => {
  // One byte of UTF-16 decodes to an empty string, which body-parser would read as `{}` (CI seed 48164305 found
  // `countTokens` answering 200 to it).
  for (const [charset, body] of [['utf-16', '0'], ['UTF-16LE', chat], ['iso-8859-1', chat]] as const) {
    const answer = await post([body], { 'content-type': `application/json; charset=${charset}` });
    assert.equal(answer.status, 415, charset);
    assert.match(answer.body.error.message, new RegExp(`charset '${charset.toLowerCase()}' is not supported: JSON request bodies must be UTF-8`));
  }
});

test('bodies nesting more than 128 levels are refused with a 400 by either reader, 128 levels pass', async () => {
  // The body object is the first level, `extra`'s arrays the others.
  const nested = (levels: number) => `{"model":"builtin/echo","messages":[{"role":"user","content":"hi"}],"extra":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
  for (const { headers, encode } of readers) {
    // 5,000 levels once overflowed the stack in the token counter: a 500.
    for (const levels of [129, 5_000]) {
      const deep = await post([encode(nested(levels))], headers);
      assert.equal(deep.status, 400, `${levels} levels`);
      assert.equal(deep.body.error.code, 'nesting_too_deep');
    }
    const limit = await post([encode(nested(128))], headers);
    assert.notEqual(limit.body.error?.code, 'nesting_too_deep');
  }
});
