import { AccessPolicy } from '../access/access-policy.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { configSchema } from '../config/config-schema.js';
import { GatewayError } from './gateway-error.js';
import { DeploymentHealth } from './deployment-health.js';
import { ModelRegistry } from './model-registry.js';
import { Router } from './router.js';
import type { RouteTarget } from './route-target.js';

/** Real registry and router over builtin providers; the attempt callback plays the upstreams. */
function setup(routing: Record<string, number> = {}, random?: () => number) {
  const config = configSchema.parse({
    providers: [
      { id: 'a', type: 'builtin' },
      { id: 'b', type: 'builtin' },
    ],
    models: [
      { id: 'smart', deployments: [{ provider: 'a', upstream_model: 'x', weight: 3 }, { provider: 'b', upstream_model: 'x', weight: 1 }], fallbacks: ['spare'] },
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
      const key = await router.run(smart, async (target) => target.deployment.key, signal, anyone);
      if (key === 'a/x') onA += 1;
    }
    assert.ok(Math.abs(onA / 4_000 - 0.75) < 0.04, `share on the weight-3 deployment: ${onA / 4_000}`);
  });

  test('a refused credential moves to another deployment and never retries the same one', async () => {
    const { router, smart } = setup({}, () => 0);
    const seen: string[] = [];
    const answer = await router.run(
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
      router.run(smart, async () => {
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
    const answer = await router.run(
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
    health.recordFailure('b/y', 120_000);
    const key = await router.run(smart, async (target) => target.deployment.key, signal, anyone);
    assert.ok(key === 'a/x' || key === 'b/x', `a cooling deployment of the model itself was tried: ${key}`);
  });

  test('a client that goes away during the backoff ends the wait at once', async () => {
    const { router, smart } = setup({ backoff_ms: 60_000, max_backoff_ms: 60_000 });
    const controller = new AbortController();
    const started = Date.now();
    const run = router.run(
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
});
