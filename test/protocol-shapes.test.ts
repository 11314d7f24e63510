// Every operation of the contract answers, and every error —
// auth, validation, unknown path — comes in the shape of the route's protocol family.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => (gateway = await startGateway()));
after(() => gateway.close());

type Family = 'openai' | 'anthropic' | 'gemini';

function assertShape(family: Family, body: unknown, status: number): void {
  const error = body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (family === 'openai') {
    assert.deepEqual(Object.keys(error.error).sort(), ['code', 'message', 'param', 'type']);
  } else if (family === 'anthropic') {
    assert.equal(error.type, 'error');
    assert.equal(typeof error.error.type, 'string');
    assert.equal(typeof error.error.message, 'string');
  } else {
    assert.equal(error.error.code, status);
    assert.equal(typeof error.error.status, 'string');
    assert.equal(typeof error.error.message, 'string');
  }
}

describe('unknown resources answer 404 in their shape', () => {
  for (const [method, path] of [
    ['GET', '/v1/responses/resp_123'],
    ['DELETE', '/v1/responses/resp_123'],
    ['GET', '/v1/responses/resp_123/input_items'],
  ] as const) {
    test(`${method} ${path} of an unknown response is a 404 in OpenAI's shape`, async () => {
      const response = await fetch(gateway.origin + path, { method, headers: { authorization: `Bearer ${gateway.apiKey}` } });
      assert.equal(response.status, 404);
      assertShape('openai', await response.json(), 404);
    });
  }

  test('GET /v1/images/files/{file} needs no key: an unknown file is a 404, not a 401', async () => {
    const response = await fetch(`${gateway.origin}/v1/images/files/img_abc.png`);
    assert.equal(response.status, 404);
    assertShape('openai', await response.json(), 404);
  });
});

describe('each family takes the key where its SDK sends it', () => {
  const anthropicBody = JSON.stringify({ model: 'builtin/echo', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
  const geminiBody = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  const geminiPath = '/v1beta/models/builtin%2Fecho:generateContent';
  const cases: Array<[Family, string, string, Record<string, string>, string?]> = [
    ['anthropic', '/v1/messages', 'POST', { 'x-api-key': 'KEY', 'anthropic-version': '2099-01-01' }, anthropicBody],
    ['anthropic', '/v1/messages?beta=true', 'POST', { authorization: 'Bearer KEY' }, anthropicBody],
    ['gemini', geminiPath, 'POST', { 'x-goog-api-key': 'KEY' }, geminiBody],
    ['gemini', `${geminiPath}?key=KEY`, 'POST', {}, geminiBody],
    ['gemini', geminiPath, 'POST', { authorization: 'Bearer KEY' }, geminiBody],
  ];
  for (const [family, path, method, headers, body] of cases) {
    const how = Object.keys(headers)[0] ?? 'query';
    test(`${family} via ${how}: right key passes auth, wrong key gets 401 in its shape`, async () => {
      const send = (key: string) =>
        fetch(gateway.origin + path.replace('KEY', key), {
          method,
          headers: { 'content-type': 'application/json', ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('KEY', key)])) },
          body,
        });
      assert.equal((await send(gateway.apiKey)).status, 200);
      const refused = await send('sk-gw-wrong');
      assert.equal(refused.status, 401);
      assertShape(family, await refused.json(), 401);
    });
  }

  test('an x-api-key is not accepted on OpenAI-only routes', async () => {
    const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': gateway.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 401);
  });

  test('the shared model routes take each SDK’s key and answer in its shape', async () => {
    const anthropic = await fetch(`${gateway.origin}/v1/models`, { headers: { 'x-api-key': gateway.apiKey } });
    assert.equal(anthropic.status, 200);
    assert.equal(((await anthropic.json()) as { has_more: boolean }).has_more, false);
    const wrong = await fetch(`${gateway.origin}/v1/models`, { headers: { 'x-api-key': 'sk-gw-wrong' } });
    assert.deepEqual(((await wrong.json()) as { type: string }).type, 'error', "Anthropic's error shape");
  });
});

describe('request errors', () => {
  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(gateway.origin + path, { method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': contentType }, body });

  test('invalid JSON → 400 in each shape', async () => {
    for (const [family, path] of [['openai', '/v1/chat/completions'], ['anthropic', '/v1/messages'], ['gemini', '/v1beta/models/x:generateContent']] as const) {
      const response = await post(path, '{"model": ');
      assert.equal(response.status, 400, path);
      assertShape(family, await response.json(), 400);
    }
  });

  test('a body over the limit → 413', async () => {
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] }));
    assert.equal(response.status, 413);
    assertShape('openai', await response.json(), 413);
  });

  test('a wrong content type → 415', async () => {
    const response = await post('/v1/chat/completions', 'hello', 'text/plain');
    assert.equal(response.status, 415);
    assertShape('openai', await response.json(), 415);
  });

  test('a wrong type names the field', async () => {
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'robot', content: 'hi' }] }));
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { param: string } };
    assert.equal(body.error.param, 'messages[0].role');
  });

  test('unknown paths → 404 in the family shape', async () => {
    const response = await fetch(`${gateway.origin}/v1beta/nothing`, { headers: { 'x-goog-api-key': gateway.apiKey } });
    assert.equal(response.status, 404);
    assertShape('gemini', await response.json(), 404);
  });
});

test('no log line of this whole file contains the key, even when it came as ?key=', () => {
  assert.ok(gateway.logs.length > 20, 'requests were logged');
  assert.ok(!gateway.logs.some((line) => line.includes(gateway.apiKey)));
});
