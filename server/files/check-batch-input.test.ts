import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchInputChecker, describeBatchInputProblem, maxBatchRequests } from './check-batch-input.js';

const request = (customId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [] }, ...extra });

/** Feeds the text in pieces of `size` bytes, as a stream would cut it. */
function check(text: string, size = 7, maxLineBytes = 1024) {
  const checker = new BatchInputChecker(maxLineBytes);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) checker.push(bytes.subarray(at, at + size));
  return checker.end();
}

test('good input, however the bytes are cut, with CRLF, blank lines and no final line end', () => {
  const text = `${request('a')}\r\n\n${request('b', { url: '/v1/responses' })}\n${request('c', { url: '/v1/embeddings' })}`;
  for (const size of [1, 2, 5, 64, 10_000]) assert.equal(check(text, size), undefined, `pieces of ${size}`);
});

test('each problem names its line', () => {
  assert.deepEqual(check(`${request('a')}\n{nope\n`), { line: 2, message: check(`${request('a')}\n{nope\n`)!.message });
  assert.match(check(`${request('a')}\n{nope\n`)!.message, /^it is not valid JSON/);
  assert.deepEqual(check(`${request('a')}\n${request('a')}\n`), { line: 2, message: `'custom_id' "a" is already used on line 1; each request needs its own` });
  assert.deepEqual(check(`${JSON.stringify({ method: 'POST' })}\n`), { line: 1, message: "'custom_id' is missing" });
  assert.deepEqual(check(`${request('')}\n`), { line: 1, message: "'custom_id' must be a non-empty string" });
  assert.deepEqual(check(`${request('a', { url: '/v1/messages' })}\n`)!.line, 1);
  assert.deepEqual(check('\n\n'), { line: 0, message: 'the file holds no request (one JSON object per line)' });
  assert.equal(describeBatchInputProblem({ line: 3, message: 'x' }), 'Invalid batch input file, line 3: x.');
});

test('a line over the bound is refused without being held, and so are bytes that are not UTF-8', () => {
  assert.deepEqual(check(`${request('a')}\n${'x'.repeat(2000)}\n`, 100, 1024), { line: 2, message: 'it is over 1024 bytes, the largest request body the gateway takes' });
  const checker = new BatchInputChecker(1024);
  checker.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
  assert.deepEqual(checker.end(), { line: 1, message: 'it is not UTF-8 text' });
});

test('at most 50,000 requests', () => {
  const checker = new BatchInputChecker(1024);
  for (let index = 0; index <= maxBatchRequests; index++) checker.push(Buffer.from(`{"custom_id":"${index}","method":"POST","url":"/v1/embeddings","body":{}}\n`));
  assert.deepEqual(checker.end(), { line: maxBatchRequests + 1, message: `a batch holds at most ${maxBatchRequests} requests, and this is request ${maxBatchRequests + 1}` });
});
