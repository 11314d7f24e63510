import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRetryAfter, scrubSecrets, upstreamStatusError, upstreamUnreachable } from './upstream-error.js';

const secret = 'sk-upstream-secret-0123456789';

test("a 400 keeps the upstream's status, message, param and code", () => {
  const error = upstreamStatusError('p', 400, {}, { message: 'Unsupported parameter: max_tokens', param: 'max_tokens', code: 'unsupported_parameter' }, [secret]);
  assert.equal(error.status, 400);
  assert.equal(error.kind, 'invalid_request');
  assert.equal(error.message, 'Unsupported parameter: max_tokens');
  assert.equal(error.param, 'max_tokens');
  assert.deepEqual(error.upstream, { providerId: 'p', status: 400, retryAfterMs: undefined });
});

test('a refused upstream credential is a 502 that quotes nothing of the key', () => {
  const error = upstreamStatusError('p', 401, {}, { message: `Incorrect API key provided: ${secret}` }, [secret]);
  assert.equal(error.status, 502);
  assert.doesNotMatch(error.message, /secret|sk-/);
});

test('429 keeps retry-after; 503 and 529 are 503 overloaded; other 5xx are 502', () => {
  const limited = upstreamStatusError('p', 429, { 'retry-after': '7' }, { message: 'slow down' }, []);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers?.['retry-after'], '7');
  assert.equal(limited.upstream?.retryAfterMs, 7_000);
  assert.equal(upstreamStatusError('p', 529, {}, {}, []).status, 503);
  assert.equal(upstreamStatusError('p', 500, {}, {}, []).status, 502);
});

test('retry-after-ms wins over retry-after; dates are read too', () => {
  assert.equal(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }), 250);
  const inTwoSeconds = new Date(Date.now() + 2_000).toUTCString();
  const fromDate = parseRetryAfter({ 'retry-after': inTwoSeconds })!;
  assert.ok(fromDate > 0 && fromDate <= 2_000);
  assert.equal(parseRetryAfter({}), undefined);
});

test('key-shaped strings and configured secrets are scrubbed from upstream messages', () => {
  assert.equal(scrubSecrets(`bad key ${secret} and AIzaSyA1234567890abcdefghijk`, [secret]), 'bad key [redacted] and [redacted]');
  assert.equal(scrubSecrets('custom-secret-value-here rejected', ['custom-secret-value-here']), '[redacted] rejected');
});

test('timeouts and refused connections become retryable upstream failures without a status', () => {
  const timeout = upstreamUnreachable('p', Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }));
  assert.equal(timeout.status, 504);
  assert.deepEqual(timeout.upstream, { providerId: 'p' });
  const refused = upstreamUnreachable('p', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  assert.equal(refused.status, 502);
  assert.match(refused.message, /ECONNREFUSED/);
});
