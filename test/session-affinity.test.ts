// Session affinity for prompt caches (server/core/session-key.ts, rendezvous-order.ts): a model with three
// weighted OpenAI deployments (fakes replaying a recorded Chat Completions answer), and sessions of several
// turns over Chat Completions (`prompt_cache_key`), Messages (Claude Code's session header, as recorded) and
// Responses (Codex's, as recorded). Which deployment served each turn is counted at the fakes: every request
// carries "session <id> turn <n>" in its text, and each fake records what it received.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { createClient, unwrap } from '../client/index.js';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

const chatReply = { fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' } as const;
/** What the gateway asks for when it translates Messages or Responses to Chat Completions: a stream. */
const chatStreamReply = { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' } as const;
const weights = [3, 2, 1];
const sessionCount = 30;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Three fakes, each with an answer for every request it could get. */
async function deployments(reply: FakeReply = chatReply): Promise<FakeUpstream[]> {
  const fakes = await Promise.all(weights.map(() => startFakeUpstream()));
  for (const fake of fakes) {
    fake.enqueue(...Array.from({ length: 2_000 }, () => reply));
    cleanups.push(() => fake.close());
  }
  return fakes;
}

/** A gateway whose model `smart` is served by the fakes with `weights`; every instance gets the same config. */
async function gatewayOn(fakes: FakeUpstream[], sessionAffinity?: boolean): Promise<TestGateway> {
  const config = configSchema.parse({
    providers: fakes.map((fake, index) => ({ id: `p${index}`, type: 'openai', base_url: `${fake.origin}/v1`, api_key: upstreamKey })),
    models: [
      {
        id: 'smart',
        deployments: fakes.map((_, index) => ({ provider: `p${index}`, upstream_model: `m${index}`, weight: weights[index] })),
        ...(sessionAffinity !== undefined && { session_affinity: sessionAffinity }),
      },
    ],
    routing: { backoff_ms: 5, max_backoff_ms: 20 },
  });
  const gateway = await startGateway({ config });
  cleanups.push(() => gateway.close());
  return gateway;
}

const marker = (session: string, turn: number) => `session ${session} turn ${turn}`;

/** Per fake, the turns it answered with a 200 (its first `answeredUpTo` requests, when given), as `session turn` pairs. */
function servedTurns(fakes: FakeUpstream[], answeredUpTo: Array<number | undefined> = []): Array<Array<{ session: string; turn: number }>> {
  return fakes.map((fake, index) =>
    fake.requests.slice(0, answeredUpTo[index] ?? fake.requests.length).flatMap((request) => {
      const found = /session (\S+) turn (\d+)/.exec(request.body);
      return found ? [{ session: found[1]!, turn: Number(found[2]) }] : [];
    }),
  );
}

/** For each session, the deployment (index) that served each of its turns. */
function servedBy(fakes: FakeUpstream[], answeredUpTo?: Array<number | undefined>): Map<string, Map<number, number[]>> {
  const bySession = new Map<string, Map<number, number[]>>();
  servedTurns(fakes, answeredUpTo).forEach((turns, deployment) => {
    for (const { session, turn } of turns) {
      const byTurn = bySession.get(session) ?? new Map<number, number[]>();
      byTurn.set(turn, [...(byTurn.get(turn) ?? []), deployment]);
      bySession.set(session, byTurn);
    }
  });
  return bySession;
}

/** The one deployment that served `turns` of a session; fails when a turn was served twice or by another one. */
function oneDeployment(served: Map<number, number[]> | undefined, turns: number[], session: string): number {
  const all = turns.map((turn) => served?.get(turn) ?? []);
  assert.ok(all.every((each) => each.length === 1), `session ${session}: turns ${turns} each served once, got ${JSON.stringify(all)}`);
  const distinct = new Set(all.flat());
  assert.equal(distinct.size, 1, `session ${session}: turns ${turns} served by deployments ${[...distinct]}`);
  return all[0]![0]!;
}

/** Sends one turn of a session through a client protocol, as its client would. */
type SendTurn = (gateway: TestGateway, session: string, turn: number, apiKey?: string) => Promise<void>;

/** A recorded request of a coding agent (test/fixtures/clients/README.md), its session ID replaced by ours. */
function recordedHeaders(file: string, recordedSession: string, session: string): Record<string, string> {
  const { headers } = JSON.parse(readFileSync(new URL(`./fixtures/clients/${file}`, import.meta.url), 'utf8')) as { headers: Record<string, string> };
  const ours = Object.entries(headers)
    .filter(([name]) => name !== 'accept-encoding')
    .map(([name, value]) => [name, value.replaceAll(recordedSession, session)]);
  return Object.fromEntries(ours) as Record<string, string>;
}

async function postJson(gateway: TestGateway, path: string, headers: Record<string, string>, body: unknown, apiKey: string): Promise<void> {
  const response = await fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.text());
  await response.arrayBuffer().catch(() => undefined);
}

const protocols: Array<{ name: string; send: SendTurn; upstreamReply: FakeReply }> = [
  {
    name: 'Chat Completions with prompt_cache_key',
    upstreamReply: chatReply,
    send: async (gateway, session, turn, apiKey = gateway.apiKey) => {
      const openai = new OpenAI({ apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      await openai.chat.completions.create({ model: 'smart', prompt_cache_key: session, messages: [{ role: 'user', content: marker(session, turn) }] });
    },
  },
  {
    name: "Messages with Claude Code's x-claude-code-session-id",
    upstreamReply: chatStreamReply,
    send: async (gateway, session, turn, apiKey = gateway.apiKey) => {
      const headers = recordedHeaders('claude-code/01-asks-for-tool.json', '4a4400b3-7da4-46ef-b1df-c0ba43517e24', session);
      assert.equal(headers['x-claude-code-session-id'], session);
      await postJson(gateway, '/v1/messages?beta=true', headers, { model: 'smart', max_tokens: 64, messages: [{ role: 'user', content: marker(session, turn) }] }, apiKey);
    },
  },
  {
    name: "Responses with Codex's session-id",
    upstreamReply: chatStreamReply,
    send: async (gateway, session, turn, apiKey = gateway.apiKey) => {
      const headers = recordedHeaders('codex/01-asks-for-tool.json', '01a21be9-a25b-7ff3-9c01-744558432e37', session);
      assert.equal(headers['session-id'], session);
      await postJson(gateway, '/v1/responses', headers, { model: 'smart', store: false, input: marker(session, turn) }, apiKey);
    },
  },
];

/** Sends `turn` of every session at once, through `gateway`. */
async function turnOfAll(send: SendTurn, gateway: TestGateway, sessions: string[], turn: number): Promise<void> {
  await Promise.all(sessions.map((session) => send(gateway, session, turn)));
}

for (const { name, send, upstreamReply } of protocols) {
  describe(name, () => {
    test(`${sessionCount} sessions of 6 turns: one deployment per session, on either of two instances, and one other each after it fails`, async () => {
      const fakes = await deployments(upstreamReply);
      const [first, second] = [await gatewayOn(fakes), await gatewayOn(fakes)];
      const sessions = Array.from({ length: sessionCount }, () => randomUUID());

      // Turns 1 and 2 through the first instance, 3 through the second.
      await turnOfAll(send, first, sessions, 1);
      await turnOfAll(send, first, sessions, 2);
      await turnOfAll(send, second, sessions, 3);
      const before = servedBy(fakes);
      const home = new Map(sessions.map((session) => [session, oneDeployment(before.get(session), [1, 2, 3], session)]));
      const perDeployment = weights.map((_, index) => sessions.filter((session) => home.get(session) === index).length);
      assert.ok(perDeployment.every((count) => count > 0), `every deployment has sessions: ${perDeployment}`);
      assert.ok(perDeployment[0]! > perDeployment[2]!, `the weight-3 deployment has more sessions than the weight-1 one: ${perDeployment}`);

      // The weight-3 deployment fails from now on (its fake answers 500 to everything).
      const broken = 0;
      const answeredUpTo = fakes.map((fake, index) => (index === broken ? fake.requests.length : undefined));
      fakes[broken]!.discardQueued();
      await turnOfAll(send, first, sessions, 4);
      await turnOfAll(send, first, sessions, 5);
      await turnOfAll(send, second, sessions, 6);
      const after = servedBy(fakes, answeredUpTo);
      for (const session of sessions) {
        const now = oneDeployment(after.get(session), [4, 5, 6], session);
        if (home.get(session) === broken) {
          assert.notEqual(now, broken);
        } else {
          assert.equal(now, home.get(session), `session ${session} stayed where it was`);
        }
      }
      assert.ok(fakes[broken]!.requests.length > answeredUpTo[broken]!, 'the failing deployment was tried');
    });
  });
}

describe('spread', () => {
  const shares = (counts: number[]) => counts.map((count) => count / counts.reduce((sum, each) => sum + each, 0));
  const weightShares = weights.map((weight) => weight / weights.reduce((sum, each) => sum + each, 0));
  const requests = 600;

  test('sessions spread over the deployments by weight', async () => {
    const fakes = await deployments();
    const gateway = await gatewayOn(fakes);
    const sessions = Array.from({ length: requests }, () => randomUUID());
    for (let i = 0; i < requests; i += 50) await turnOfAll(protocols[0]!.send, gateway, sessions.slice(i, i + 50), 1);
    const seen = shares(fakes.map((fake) => fake.requests.length));
    // 600 independent sessions: each share's standard deviation is at most 0.021; 0.08 is almost 4 of them.
    seen.forEach((share, index) => assert.ok(Math.abs(share - weightShares[index]!) < 0.08, `deployment ${index}: ${share} of sessions, weight share ${weightShares[index]}`));
  });

  test('requests without a session are spread by weight, one by one, as before', async () => {
    const fakes = await deployments();
    const gateway = await gatewayOn(fakes);
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const same = 'the same prompt every time';
    for (let i = 0; i < requests; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => openai.chat.completions.create({ model: 'smart', messages: [{ role: 'user', content: same }] })));
    }
    const seen = shares(fakes.map((fake) => fake.requests.length));
    seen.forEach((share, index) => assert.ok(Math.abs(share - weightShares[index]!) < 0.08, `deployment ${index}: ${share} of requests, weight share ${weightShares[index]}`));
  });

  test('with session_affinity: false, the turns of one session are spread by weight too', async () => {
    const fakes = await deployments();
    const gateway = await gatewayOn(fakes, false);
    const session = randomUUID();
    for (let turn = 1; turn <= 60; turn++) await protocols[0]!.send(gateway, session, turn);
    assert.ok(fakes.every((fake) => fake.requests.length > 0), `served by: ${fakes.map((fake) => fake.requests.length)}`);
  });

  test('the same prompt_cache_key from two accounts is two sessions, each routed on its own', async () => {
    const fakes = await deployments();
    const gateway = await gatewayOn(fakes);
    const admin = createClient({ baseUrl: gateway.origin, apiKey: gateway.adminKey });
    const account = unwrap(await admin.POST('/admin/v1/accounts', { body: { name: 'other' } }));
    const { key } = unwrap(await admin.POST('/admin/v1/accounts/{account_id}/keys', { params: { path: { account_id: account.id } }, body: { name: 'k' } }));
    const sessions = Array.from({ length: sessionCount }, () => randomUUID());
    for (const session of sessions) {
      await protocols[0]!.send(gateway, session, 1);
      await protocols[0]!.send(gateway, session, 2, key);
      await protocols[0]!.send(gateway, session, 3);
      await protocols[0]!.send(gateway, session, 4, key);
    }
    const served = servedBy(fakes);
    const apart = sessions.filter((session) => {
      const ours = oneDeployment(served.get(session), [1, 3], session);
      const theirs = oneDeployment(served.get(session), [2, 4], session);
      return ours !== theirs;
    });
    // Independent choices with weights 3:2:1 land apart 22 times in 36: all 30 together, or none, is chance (< 1e-6).
    assert.ok(apart.length > 0 && apart.length < sessions.length, `${apart.length} of ${sessions.length} shared IDs routed apart`);
  });
});
