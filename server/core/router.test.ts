import { AccessPolicy } from '../access/access-policy.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { configSchema } from '../config/config-schema.js';
import { GatewayError } from './gateway-error.js';
import { DeploymentHealth } from './deployment-health.js';
import { ModelRegistry } from './model-registry.js';
import { Router } from './router.js';
import { rendezvousOrder } from './rendezvous-order.js';
import type { RouteTarget } from './route-target.js';

/** The value of the first attempt that resolved; these tests look at values, not at which target gave it. */
async function routedValue<T>(router: Router, ...args: Parameters<typeof router.route<T>>): Promise<T> {
  return (await router.route(...args)).value;
}

/** Real registry and router over builtin providers; the attempt callback plays the upstreams. */
function setup(routing: Record<string, number> = {}, random?: () => number, sessionAffinity = true) {
  const config = configSchema.parse({
    providers: [
      { id: 'a', type: 'builtin' },
      { id: 'b', type: 'builtin' },
    ],
    models: [
      {
        id: 'smart',
        deployments: [{ provider: 'a', upstream_model: 'x', weight: 3 }, { provider: 'b', upstream_model: 'x', weight: 1 }, { provider: 'b', upstream_model: 'z', weight: 2 }],
        fallbacks: ['spare'],
        session_affinity: sessionAffinity,
      },
      { id: 'spare', provider: 'b', upstream_model: 'y' },
    ],
    routing: { backoff_ms: 1, max_backoff_ms: 1, ...routing },
  });
  const registry = new ModelRegistry(config);
  const health = new DeploymentHealth(config.routing);
  const router = new Router(registry, { settings: config.routing, health, random });
  return { registry, router, health, smart: registry.resolve('smart', anyone) };
}

const failure = (status?: number) => new GatewayError('upstream', `HTTP ${status}`, { upstream: { providerId: 'x', status } });
const signal = new AbortController().signal;
const anyone = AccessPolicy.unrestricted;

describe('Router', () => {
  test('spreads first attempts by weight', async () => {
    const { router, smart } = setup();
    let onA = 0;
    for (let i = 0; i < 4_000; i++) {
      const key = await routedValue(router, smart, async (target) => target.deployment.key, signal, anyone);
      if (key === 'a/x') onA += 1;
    }
    assert.ok(Math.abs(onA / 4_000 - 0.5) < 0.04, `share on the weight-3 deployment of 6: ${onA / 4_000}`);
  });

  test('a refused credential moves to another deployment and never retries the same one', async () => {
    const { router, smart } = setup({}, () => 0);
    const seen: string[] = [];
    const answer = await routedValue(router, 
      smart,
      async (target) => {
        seen.push(target.deployment.key);
        if (target.deployment.key === 'a/x') throw failure(401);
        return 'ok';
      },
      signal,
      anyone,
    );
    assert.equal(answer, 'ok');
    assert.deepEqual(seen, ['a/x', 'b/x']);
  });

  test('a client error stops at once: no retry, no fallback', async () => {
    const { router, smart } = setup();
    let attempts = 0;
    await assert.rejects(
      routedValue(router, smart, async () => {
        attempts += 1;
        throw failure(400);
      }, signal, anyone),
      /HTTP 400/,
    );
    assert.equal(attempts, 1);
  });

  test('falls back to the next model after max_attempts, and reports which model answered', async () => {
    const { router, smart } = setup({ max_attempts: 2 });
    const seen: RouteTarget[] = [];
    const answer = await routedValue(router, 
      smart,
      async (target) => {
        seen.push(target);
        if (target.model.id === 'smart') throw failure(503);
        return target.model.id;
      },
      signal,
      anyone,
    );
    assert.equal(answer, 'spare');
    assert.deepEqual(seen.map((target) => target.model.id), ['smart', 'smart', 'spare']);
  });

  test('when everything is cooling down, the deployment whose cool-down ends first is still tried', async () => {
    const { router, smart, health } = setup({ failures_before_cooldown: 1, cooldown_ms: 60_000 });
    health.recordFailure('a/x');
    health.recordFailure('b/x');
    health.recordFailure('b/z');
    health.recordFailure('b/y', 120_000);
    const key = await routedValue(router, smart, async (target) => target.deployment.key, signal, anyone);
    assert.ok(key !== 'b/y', `a cooling deployment of the model itself was tried: ${key}`);
  });

  test('a client that goes away during the backoff ends the wait at once', async () => {
    const { router, smart } = setup({ backoff_ms: 60_000, max_backoff_ms: 60_000 });
    const controller = new AbortController();
    const started = Date.now();
    const run = routedValue(router, 
      smart,
      async () => {
        setTimeout(() => controller.abort(new Error('client disconnected')), 20);
        throw failure(500);
      },
      controller.signal,
      anyone,
    );
    await assert.rejects(run, /client disconnected/);
    assert.ok(Date.now() - started < 1_000);
  });

  describe('with a session', () => {
    const sessions = Array.from({ length: 60 }, (_, i) => `acct\0session-${i}`);
    const served = (router: Router, model: Parameters<Router['route']>[0], session: string) => routedValue(router, model, async (target) => target.deployment.key, signal, anyone, session);

    test("sends every request of a session to the session's first choice", async () => {
      const { router, smart } = setup({}, Math.random);
      for (const session of sessions) {
        const expected = rendezvousOrder(smart.deployments, session)[0]!.key;
        for (let turn = 0; turn < 5; turn++) assert.equal(await served(router, smart, session), expected);
      }
    });

    test('while its first choice cools down, a session goes to its second; afterwards back to the first', async () => {
      let now = 0;
      const { smart, registry } = setup();
      const settings = { ...configSchema.parse({ providers: [], models: [] }).routing, failures_before_cooldown: 1, cooldown_ms: 1_000 };
      const health = new DeploymentHealth(settings, () => now);
      const timed = new Router(registry, { settings, health });
      for (const session of sessions) {
        const [first, second] = rendezvousOrder(smart.deployments, session);
        health.recordFailure(first!.key);
        assert.equal(await served(timed, smart, session), second!.key);
        now += 1_001;
        assert.equal(await served(timed, smart, session), first!.key);
      }
    });

    test("a failed attempt is retried on the session's next choice, in order", async () => {
      // Cool-downs would carry over from one session's failures to the next: out of the way here.
      const { router, smart } = setup({ max_attempts: 3, failures_before_cooldown: 100 });
      for (const session of sessions) {
        const seen: string[] = [];
        await assert.rejects(
          routedValue(router, smart, async (target) => {
            if (target.model.id === 'spare') throw failure(400);
            seen.push(target.deployment.key);
            throw failure(503);
          }, signal, anyone, session),
        );
        assert.deepEqual(seen, rendezvousOrder(smart.deployments, session).map((each) => each.key));
      }
    });

    test('with session_affinity off, a session is spread by weight like any request', async () => {
      const { router, smart } = setup({}, Math.random, false);
      const keys = new Set<string>();
      for (let turn = 0; turn < 50; turn++) keys.add(await served(router, smart, sessions[0]!));
      assert.equal(keys.size, 3);
    });
  });
});
