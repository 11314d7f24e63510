// Issue 34's reproductions of what a request may cost: twin spellings that bypassed the reservation,
// thinking that raised Anthropic's max_tokens past what was reserved, and candidateCount multiplying
// output past the reservation and the key's ceiling. Every upstream here answers 500 (an empty queue):
// what matters is what it was asked for.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { sendInProtocol, type TextProtocol } from './helpers/send-in-protocol.js';
import { startUpstreamGateway, type UpstreamGateway } from './helpers/upstream-gateway.js';

const reasoningModel = {
  capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'],
  pricing: { input_per_mtok: 1, output_per_mtok: 10 },
};
const userSays = [{ role: 'user', content: 'hi' }];
const geminiContents = [{ role: 'user', parts: [{ text: 'hi' }] }];

const send = sendInProtocol;

const keyWith = (setup: UpstreamGateway, grants: Parameters<typeof keyOfNewAccount>[1]) => keyOfNewAccount(setup.gateway, grants);

/** The bodies the upstream received since `from`. */
const receivedSince = (setup: UpstreamGateway, from: number) => setup.upstream.requests.slice(from).map((request) => request.json as Record<string, unknown>);

describe('twin spellings are one field (finding 1)', () => {
  let gemini: UpstreamGateway;
  let limited: string;
  before(async () => {
    gemini = await startUpstreamGateway('gemini', { model: reasoningModel, config: { limits: { default_output_tokens: 300 } } });
    limited = await keyWith(gemini, { limits: { tokens_per_minute: 100_000, spend_per_day_usd: 0.1 } });
  });
  after(() => gemini.close());

  test("generation_config with maxOutputTokens and max_output_tokens is a 400 naming both, and reaches no upstream", async () => {
    const from = gemini.upstream.requests.length;
    const refused = await send(gemini, limited, 'gemini', { contents: geminiContents, generation_config: { maxOutputTokens: 100_000, max_output_tokens: 5 } });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /generation_config\.maxOutputTokens/);
    assert.match(refused.text, /generation_config\.max_output_tokens/);
    assert.match(refused.text, /INVALID_ARGUMENT/, "in Gemini's error shape");
    const split = await send(gemini, limited, 'gemini', { contents: geminiContents, generationConfig: { temperature: 1 }, generation_config: {} });
    assert.equal(split.status, 400, split.text);
    const nested = await send(gemini, limited, 'gemini', { contents: geminiContents, generationConfig: { thinkingConfig: { thinkingBudget: 0 }, thinking_config: { thinking_budget: 20_000 } } });
    assert.equal(nested.status, 400, nested.text);
    assert.deepEqual(receivedSince(gemini, from), []);
  });

  test('a snake_case body gets the granted cap in the one spelling the upstream receives', async () => {
    const from = gemini.upstream.requests.length;
    await send(gemini, limited, 'gemini', { contents: geminiContents, generation_config: { temperature: 1 } });
    const [sent] = receivedSince(gemini, from);
    assert.deepEqual(sent!.generationConfig, { temperature: 1, maxOutputTokens: 300 });
    assert.equal(sent!.generation_config, undefined);
  });

  test('chat with max_tokens and max_completion_tokens is a 400 in OpenAI’s shape', async () => {
    const chat = await startUpstreamGateway('openai', { model: reasoningModel });
    try {
      const key = await keyWith(chat, { limits: { tokens_per_minute: 100_000 } });
      const refused = await send(chat, key, 'chat', { messages: userSays, max_completion_tokens: 100_000, max_tokens: 5 });
      assert.equal(refused.status, 400);
      assert.deepEqual((JSON.parse(refused.text) as { error: { param: string; code: string } }).error.code, 'duplicate_parameter');
      assert.equal(chat.upstream.requests.length, 0);
    } finally {
      await chat.close();
    }
  });
});

describe('reasoning stays within the cap that was reserved (finding 2)', () => {
  let anthropic: UpstreamGateway;
  let limited: string;
  before(async () => {
    anthropic = await startUpstreamGateway('anthropic', { model: reasoningModel, config: { limits: { default_output_tokens: 2_000 } } });
    limited = await keyWith(anthropic, { limits: { tokens_per_minute: 1_000_000 } });
  });
  after(() => anthropic.close());

  const asked = async (protocol: TextProtocol, body: Record<string, unknown>) => {
    const from = anthropic.upstream.requests.length;
    await send(anthropic, limited, protocol, body);
    const sent = receivedSince(anthropic, from);
    assert.ok(sent.length > 0, 'the request reached the upstream');
    return sent.map(({ max_tokens, thinking }) => ({ max_tokens, budget: (thinking as { budget_tokens?: number } | undefined)?.budget_tokens }));
  };

  test('a cap of 10 with the largest reasoning goes out as max_tokens 10, from Chat, Gemini and Responses', async () => {
    for (const sent of [
      await asked('chat', { messages: userSays, max_tokens: 10, reasoning_effort: 'xhigh' }),
      await asked('gemini', { contents: geminiContents, generationConfig: { maxOutputTokens: 10, thinkingConfig: { thinkingBudget: 32_768 } } }),
      await asked('responses', { input: 'hi', max_output_tokens: 10, reasoning: { effort: 'xhigh' } }),
    ]) {
      for (const attempt of sent) assert.deepEqual(attempt, { max_tokens: 10, budget: undefined });
    }
  });

  test('a budget larger than the cap shrinks into it; a request without a cap gets the granted one, thinking inside it', async () => {
    for (const attempt of await asked('chat', { messages: userSays, max_completion_tokens: 20_000, reasoning_effort: 'xhigh' })) {
      assert.deepEqual(attempt, { max_tokens: 20_000, budget: 10_000 });
    }
    for (const attempt of await asked('responses', { input: 'hi', reasoning: { effort: 'high' } })) {
      assert.deepEqual(attempt, { max_tokens: 2_000, budget: undefined }, 'half of the granted 2,000 is below Anthropic’s 1,024 minimum');
    }
  });
});

describe('candidateCount multiplies the cap (finding 7)', () => {
  let gemini: UpstreamGateway;
  before(async () => {
    gemini = await startUpstreamGateway('gemini', { model: reasoningModel });
  });
  after(() => gemini.close());

  test('maxOutputTokens 1900 × candidateCount 8 is beyond a ceiling of 4,000 (403) and a minute of 10,000 tokens (429)', async () => {
    const body = { contents: geminiContents, generationConfig: { maxOutputTokens: 1_900, candidateCount: 8 } };
    const ceiling = await send(gemini, await keyWith(gemini, { permissions: { max_output_tokens: 4_000 } }), 'gemini', body);
    assert.equal(ceiling.status, 403, ceiling.text);
    assert.match(ceiling.text, /candidateCount/);
    const minute = await send(gemini, await keyWith(gemini, { limits: { tokens_per_minute: 10_000 } }), 'gemini', body);
    assert.equal(minute.status, 429, minute.text);
    assert.equal(gemini.upstream.requests.length, 0);
  });

  test('with no cap named, a ceiling is shared among the candidates', async () => {
    const from = gemini.upstream.requests.length;
    const key = await keyWith(gemini, { permissions: { max_output_tokens: 4_000 } });
    await send(gemini, key, 'gemini', { contents: geminiContents, generation_config: { candidate_count: 8 } });
    const [sent] = receivedSince(gemini, from);
    assert.deepEqual(sent!.generationConfig, { candidateCount: 8, maxOutputTokens: 500 });
  });
});
