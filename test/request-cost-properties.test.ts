// Issue 34's class of findings 1, 2 and 7, as properties: for random bodies in every client protocol, over
// every kind of upstream (pass-through and translated), with random twin spellings at every nesting level,
// output caps, reasoning budgets and candidate counts, what the fake upstream RECEIVES asks for no more
// output than was reserved (the named cap × candidates, or the granted `default_output_tokens`) and than
// the key's ceiling; and a field given in two spellings is a 400 that reaches no upstream.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { ProviderType } from '../server/config/config-schema.js';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { sendInProtocol, type TextProtocol } from './helpers/send-in-protocol.js';
import { startUpstreamGateway, type UpstreamGateway } from './helpers/upstream-gateway.js';

const grantedOutput = 300;
const ceiling = 1_000;
const upstreamKinds = ['anthropic', 'gemini', 'openai-chat', 'openai-responses'] as const;
type UpstreamKind = (typeof upstreamKinds)[number];

/** How a body names a field: its JSON name, its proto name (Gemini), or both (a twin). */
type Spelling = 'camel' | 'snake' | 'both';

interface Case {
  protocol: TextProtocol;
  upstream: UpstreamKind;
  /** `limited`: a tokens-per-minute limit (so an uncapped request gets a granted cap); `ceiling`: max_output_tokens. */
  key: 'limited' | 'ceiling';
  body: Record<string, unknown>;
  /** The output cap the body names for each answer, and how many answers; undefined cap when none. */
  cap?: number;
  candidates: number;
  twins: boolean;
}

const tokens = fc.integer({ min: 1, max: 50_000 });
const effort = fc.constantFrom('minimal', 'low', 'medium', 'high', 'xhigh');

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Sets `name` in `target` in the chosen spelling; with both, each spelling gets a value of its own. */
function spell(target: Record<string, unknown>, name: string, spelling: Spelling, value: unknown, twinValue: unknown): void {
  if (spelling !== 'snake') target[name] = value;
  if (spelling !== 'camel') target[snake(name)] = spelling === 'both' ? twinValue : value;
}

const spelling = fc.constantFrom<Spelling>('camel', 'camel', 'snake', 'snake', 'both');

const geminiCases = fc
  .record({
    cap: fc.option(tokens, { nil: undefined }),
    candidates: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
    budget: fc.option(fc.integer({ min: 0, max: 40_000 }), { nil: undefined }),
    spellings: fc.array(spelling, { minLength: 5, maxLength: 5 }),
    twinValue: tokens,
  })
  .map(({ cap, candidates, budget, spellings, twinValue }) => {
    const [configSpelling, capSpelling, candidatesSpelling, thinkingSpelling, budgetSpelling] = spellings as [Spelling, Spelling, Spelling, Spelling, Spelling];
    const config: Record<string, unknown> = {};
    const used: Spelling[] = [configSpelling];
    if (cap !== undefined) {
      spell(config, 'maxOutputTokens', capSpelling, cap, twinValue);
      used.push(capSpelling);
    }
    if (candidates !== undefined) {
      spell(config, 'candidateCount', candidatesSpelling, candidates, 1);
      used.push(candidatesSpelling);
    }
    if (budget !== undefined) {
      const thinking: Record<string, unknown> = {};
      spell(thinking, 'thinkingBudget', budgetSpelling, budget, twinValue);
      spell(config, 'thinkingConfig', thinkingSpelling, thinking, {});
      used.push(budgetSpelling, thinkingSpelling);
    }
    const body: Record<string, unknown> = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    // Both spellings of generationConfig: the snake one gets an empty config, as in the issue.
    spell(body, 'generationConfig', configSpelling, config, {});
    return { protocol: 'gemini' as const, body, cap, candidates: candidates ?? 1, twins: used.includes('both') };
  });

const chatCases = fc
  .record({ cap: fc.option(tokens, { nil: undefined }), field: fc.constantFrom('max_tokens', 'max_completion_tokens', 'both'), other: tokens, effort: fc.option(effort, { nil: undefined }) })
  .map(({ cap, field, other, effort: reasoning }) => {
    const body: Record<string, unknown> = { messages: [{ role: 'user', content: 'hi' }], ...(reasoning && { reasoning_effort: reasoning }) };
    if (cap !== undefined) {
      body[field === 'both' ? 'max_completion_tokens' : field] = cap;
      if (field === 'both') body.max_tokens = other;
    }
    return { protocol: 'chat' as const, body, cap, candidates: 1, twins: cap !== undefined && field === 'both' };
  });

const responsesCases = fc.record({ cap: fc.option(tokens, { nil: undefined }), effort: fc.option(effort, { nil: undefined }) }).map(({ cap, effort: reasoning }) => ({
  protocol: 'responses' as const,
  body: { input: 'hi', ...(cap !== undefined && { max_output_tokens: cap }), ...(reasoning && { reasoning: { effort: reasoning } }) },
  cap,
  candidates: 1,
  twins: false,
}));

const messagesCases = fc.record({ cap: tokens, budget: fc.option(fc.integer({ min: 1_024, max: 40_000 }), { nil: undefined }) }).map(({ cap, budget }) => ({
  protocol: 'messages' as const,
  body: { max_tokens: cap, messages: [{ role: 'user', content: 'hi' }], ...(budget !== undefined && { thinking: { type: 'enabled', budget_tokens: budget } }) },
  cap: cap as number | undefined,
  candidates: 1,
  twins: false,
}));

const cases: fc.Arbitrary<Case> = fc
  .tuple(fc.oneof(geminiCases, chatCases, responsesCases, messagesCases), fc.constantFrom(...upstreamKinds), fc.constantFrom<Case['key']>('limited', 'ceiling'))
  .map(([body, upstream, key]) => ({ ...body, upstream, key }));

/** The output the upstream was asked for, all answers together (Infinity when it names no cap). */
function askedOutput(kind: UpstreamKind, body: Record<string, unknown>): number {
  const number = (value: unknown) => (typeof value === 'number' ? value : Infinity);
  switch (kind) {
    case 'anthropic':
      // Thinking is part of max_tokens (Anthropic refuses a budget that does not fit).
      return number(body.max_tokens);
    case 'gemini': {
      const config = (body.generationConfig ?? {}) as { maxOutputTokens?: number; candidateCount?: number };
      assert.equal(body.generation_config, undefined, 'only one spelling goes upstream');
      return number(config.maxOutputTokens) * (config.candidateCount ?? 1);
    }
    case 'openai-chat':
    case 'openai-responses':
      // A Responses upstream gets Responses requests as they are and the others as Chat Completions.
      return number(body.max_completion_tokens ?? body.max_tokens ?? body.max_output_tokens);
  }
}

const gateways = new Map<UpstreamKind, { setup: UpstreamGateway; keys: Record<Case['key'], string> }>();

before(async () => {
  const model = { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'], pricing: { input_per_mtok: 1, output_per_mtok: 10 } };
  // One attempt: every upstream answers 500 (an empty queue), and only what it received matters.
  const config = { limits: { default_output_tokens: grantedOutput }, routing: { max_attempts: 1 } };
  const types: Record<UpstreamKind, [ProviderType, Record<string, unknown>]> = {
    anthropic: ['anthropic', {}],
    gemini: ['gemini', {}],
    'openai-chat': ['openai', {}],
    'openai-responses': ['openai', { api: 'responses' }],
  };
  for (const kind of upstreamKinds) {
    const [type, provider] = types[kind];
    const setup = await startUpstreamGateway(type, { model, provider, config });
    const keys = {
      limited: await keyOfNewAccount(setup.gateway, { limits: { tokens_per_minute: 1_000_000_000 } }),
      ceiling: await keyOfNewAccount(setup.gateway, { permissions: { max_output_tokens: ceiling } }),
    };
    gateways.set(kind, { setup, keys });
  }
});

after(async () => {
  for (const { setup } of gateways.values()) await setup.close();
});

test('what any upstream receives asks for no more output than was reserved and permitted; twins are a 400', async () => {
  await fc.assert(
    fc.asyncProperty(cases, async (sample) => {
      const { setup, keys } = gateways.get(sample.upstream)!;
      const from = setup.upstream.requests.length;
      const answer = await sendInProtocol(setup, keys[sample.key], sample.protocol, sample.body);
      const received = setup.upstream.requests.slice(from).map((request) => request.json as Record<string, unknown>);
      if (sample.twins) {
        assert.equal(answer.status, 400, answer.text);
        assert.deepEqual(received, []);
        return;
      }
      const named = sample.cap === undefined ? undefined : sample.cap * sample.candidates;
      const reserved = named ?? (sample.key === 'limited' ? grantedOutput : ceiling);
      const bound = sample.key === 'ceiling' ? Math.min(reserved, ceiling) : reserved;
      for (const body of received) {
        const asked = askedOutput(sample.upstream, body);
        assert.ok(asked <= bound, `the upstream was asked for ${asked} output tokens; reserved ${reserved}, permitted ${sample.key === 'ceiling' ? ceiling : '∞'}: ${JSON.stringify(body)}`);
      }
    }),
    { seed: 34, numRuns: 160, endOnFailure: true },
  );
});
