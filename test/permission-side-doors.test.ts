// Spellings that once carried a forbidden value past the permission check to an upstream pass-through:
// a chat body with both token-limit fields, and Gemini's snake_case field names. Since issue 34 a field
// given in both spellings is refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { adminApi } from './helpers/admin-api.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';

describe('no side doors past the permission check', () => {
  test('chat with max_tokens and max_completion_tokens is a 400 naming both, and the upstream receives nothing', async () => {
    const setup = await startUpstreamGateway('openai-compatible');
    try {
      const admin = adminApi(setup.gateway);
      const account = await admin.createAccount({ name: 'capped', permissions: { max_output_tokens: 50 } });
      const client = new OpenAI({ apiKey: (await admin.createKey(account.id, { name: 'k' })).key, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0 });
      for (const [completion, legacy] of [[10, 100_000], [10, 40]]) {
        await assert.rejects(
          client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: completion, max_tokens: legacy }),
          (error: { status?: number; param?: string; message?: string }) => error.status === 400 && error.param === 'max_tokens' && /max_completion_tokens/.test(error.message ?? ''),
        );
      }
      assert.equal(setup.upstream.requests.length, 0);
      setup.upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
      await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 10 });
      assert.equal((setup.upstream.requests[0]!.json as Record<string, unknown>).max_tokens, 10);
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

      const twins = await send({ generation_config: { max_output_tokens: 20 }, generationConfig: { maxOutputTokens: 10 } });
      assert.equal(twins.status, 400, 'one field in two spellings is refused, not resolved by precedence');
      assert.match(await twins.text(), /generation_config.*generationConfig|generationConfig.*generation_config/);

      setup.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
      const allowed = await send({ generation_config: { max_output_tokens: 20, stop_sequences: ['END'] } });
      assert.equal(allowed.status, 200);
      const sent = setup.upstream.requests[0]!.json as Record<string, unknown>;
      assert.deepEqual(sent.generationConfig, { maxOutputTokens: 20, stopSequences: ['END'] }, 'only camelCase goes upstream');
      assert.equal(sent.generation_config, undefined);
    } finally {
      await setup.close();
    }
  });
});
