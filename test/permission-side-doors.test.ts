// Spellings that once carried a forbidden value past the permission check to an upstream pass-through:
// a chat body with both token-limit fields, and Gemini's snake_case field names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { adminApi } from './helpers/admin-api.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';

describe('no side doors past the permission check', () => {
  test('chat with max_tokens and max_completion_tokens: both are checked, and the upstream gets the one the gateway reads', async () => {
    const setup = await startUpstreamGateway('openai-compatible');
    try {
      const admin = adminApi(setup.gateway);
      const account = await admin.createAccount({ name: 'capped', permissions: { max_output_tokens: 50 } });
      const client = new OpenAI({ apiKey: (await admin.createKey(account.id, { name: 'k' })).key, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0 });
      // Either field above the ceiling is refused, whichever one the gateway reads.
      await assert.rejects(
        client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 10, max_tokens: 100_000 }),
        (error: { status?: number; param?: string }) => error.status === 403 && error.param === 'max_tokens',
      );
      assert.equal(setup.upstream.requests.length, 0);
      setup.upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
      await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 10, max_tokens: 40 });
      const sent = setup.upstream.requests[0]!.json as Record<string, unknown>;
      assert.equal(sent.max_tokens, 10);
      assert.equal(sent.max_completion_tokens, undefined);
    } finally {
      await setup.close();
    }
  });

  test("Gemini's snake_case spellings are checked like the camelCase ones, and only camelCase goes upstream", async () => {
    const setup = await startUpstreamGateway('gemini');
    try {
      const admin = adminApi(setup.gateway);
      const account = await admin.createAccount({ name: 'capped', permissions: { max_output_tokens: 50, capabilities: [] } });
      const key = (await admin.createKey(account.id, { name: 'k' })).key;
      const send = (body: unknown) =>
        fetch(`${setup.gateway.origin}/v1beta/models/test-model:generateContent`, {
          method: 'POST',
          headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], ...(body as object) }),
        });
      assert.equal((await send({ generationConfig: { max_output_tokens: 100_000 } })).status, 403);
      assert.equal((await send({ generation_config: { maxOutputTokens: 100_000 } })).status, 403);
      const schema = { type: 'object', properties: { snake_case_property: { type: 'string' } } };
      assert.equal((await send({ generation_config: { response_mime_type: 'application/json', response_json_schema: schema } })).status, 403);

      setup.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
      const allowed = await send({ generation_config: { max_output_tokens: 20, stop_sequences: ['END'] }, generationConfig: { maxOutputTokens: 10 } });
      assert.equal(allowed.status, 200);
      const sent = setup.upstream.requests[0]!.json as Record<string, unknown>;
      assert.deepEqual(sent.generationConfig, { maxOutputTokens: 10 }, 'the camelCase twin wins; the snake_case one is not forwarded');
      assert.equal(sent.generation_config, undefined);
    } finally {
      await setup.close();
    }
  });
});
