import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, test } from 'node:test';
import { AccessPolicy } from '../access/access-policy.js';
import { configSchema } from '../config/config-schema.js';
import { combineObservers, type CallObserver } from './call-observer.js';
import { GatewayError } from './gateway-error.js';
import { ModelRegistry } from './model-registry.js';
import { attachRequestContext } from './request-context.js';
import { Router } from './router.js';

/** A real router over one model with a fallback, watched by two observers that write what they see into `seen`. */
function setup() {
  const config = configSchema.parse({
    providers: [{ id: 'a', type: 'builtin' }],
    models: [
      { id: 'smart', provider: 'a', upstream_model: 'x', fallbacks: ['spare'] },
      { id: 'spare', provider: 'a', upstream_model: 'y' },
    ],
    routing: { max_attempts: 1, backoff_ms: 1, max_backoff_ms: 1 },
  });
  const seen: string[] = [];
  const watcher = (name: string): CallObserver => ({
    onAttempt: ({ target, attempt, fallback }) => {
      seen.push(`${name} start ${attempt} ${target.model.id}${fallback ? ' fallback' : ''}`);
      return {
        run: async (run) => {
          seen.push(`${name} enter`);
          try {
            return await run();
          } finally {
            seen.push(`${name} leave`);
          }
        },
        failed: ({ verdict }) => seen.push(`${name} failed ${verdict}`),
      };
    },
  });
  const registry = new ModelRegistry(config);
  const router = new Router(registry, { settings: config.routing, observer: combineObservers([watcher('first'), watcher('second')]) });
  return { router, smart: registry.resolve('smart', AccessPolicy.unrestricted), seen };
}

describe('combineObservers', () => {
  test('tells every observer of each attempt in order, runs it inside each scope (the first outermost), and tells each failure', async () => {
    const { router, smart, seen } = setup();
    const { value: answer } = await router.route(
      smart,
      async (target) => {
        seen.push(`attempt ${target.model.id}`);
        if (target.model.id === 'smart') throw new GatewayError('upstream', 'HTTP 503', { upstream: { providerId: 'a', status: 503 } });
        return 'ok';
      },
      new AbortController().signal,
      AccessPolicy.unrestricted,
    );
    assert.equal(answer, 'ok');
    assert.deepEqual(seen, [
      'first start 1 smart',
      'second start 1 smart',
      'first enter',
      'second enter',
      'attempt smart',
      'second leave',
      'first leave',
      'first failed retry',
      'second failed retry',
      'first start 2 spare fallback',
      'second start 2 spare fallback',
      'first enter',
      'second enter',
      'attempt spare',
      'second leave',
      'first leave',
    ]);
  });

  test("passes an answer through each observer in turn, with the request's context", () => {
    const context = attachRequestContext(new IncomingMessage(new Socket()));
    const tag = (name: string): CallObserver => ({
      onAnswer: (answer, seen) => {
        assert.equal(seen, context);
        return { ...answer, droppedParams: [...answer.droppedParams, name] };
      },
    });
    const target = {} as never;
    const answer = combineObservers([tag('a'), {}, tag('b')]).onAnswer!({ target, droppedParams: [], kind: 'json', body: () => ({}), usage: undefined }, context);
    assert.deepEqual(answer.droppedParams, ['a', 'b']);
  });
});
