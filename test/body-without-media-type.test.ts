// A body sent with no media type is refused with 415, in the protocol's error shape, whether the operation's
// body is required (chat) or optional (POST /v1/conversations, which made a conversation from `false` sent
// under an empty Content-Type: found by bad-input-transport.test.ts at two seeds; http/json-body.ts refuses it). No body at all stays
// fine where the body is optional.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => {
  gateway = await startGateway();
});
after(() => gateway?.close());

async function post(path: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(`${gateway.origin}${path}`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${gateway.apiKey}` }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a body with no Content-Type', () => {
  for (const path of ['/v1/conversations', '/v1/chat/completions', '/v1/responses']) {
    test(`${path}: an empty Content-Type with bytes is a 415 naming the media type to send`, async () => {
      const answer = await post(path, { 'content-type': '' }, 'false');
      assert.equal(answer.status, 415);
      assert.deepEqual(answer.body.error, {
        message: 'The request has a body but no Content-Type: send it as application/json.',
        type: 'invalid_request_error',
        param: null,
        code: 'unsupported_media_type',
      });
    });
  }

  test('Anthropic Messages answers in its own shape', async () => {
    const answer = await post('/v1/messages', { 'content-type': '', 'anthropic-version': '2023-06-01' }, '{"model":"x"}');
    assert.equal(answer.status, 415);
    assert.equal(answer.body.type, 'error');
    assert.match(String((answer.body.error as { message: string }).message), /no Content-Type:/);
  });

  test('no body at all still makes a conversation (its body is optional)', async () => {
    const answer = await post('/v1/conversations', {});
    assert.equal(answer.status, 200);
    assert.equal(answer.body.object, 'conversation');
  });
});
