import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Deployment } from './model-registry.js';
import type { Provider } from '../providers/provider.js';
import { rendezvousOrder } from './rendezvous-order.js';

/** Deployments as the order sees them: a key and a weight (the provider is never read). */
const deployment = (key: string, weight = 1): Deployment => ({ key, weight, upstreamModel: key, provider: {} as Provider });
const sessions = Array.from({ length: 6_000 }, (_, i) => `account\0session-${i}`);
const firstChoices = (deployments: Deployment[]) => sessions.map((session) => rendezvousOrder(deployments, session)[0]!.key);

describe('rendezvousOrder', () => {
  test('is the same order for the same session and deployments, whoever computes it', () => {
    const a = [deployment('a/x', 3), deployment('b/x', 2), deployment('c/x', 1)];
    const b = [deployment('c/x', 1), deployment('a/x', 3), deployment('b/x', 2)];
    for (const session of sessions.slice(0, 200)) {
      assert.deepEqual(rendezvousOrder(a, session).map((each) => each.key), rendezvousOrder(b, session).map((each) => each.key));
    }
  });

  test('gives each deployment a share of sessions proportional to its weight', () => {
    const chosen = firstChoices([deployment('a/x', 3), deployment('b/x', 2), deployment('c/x', 1)]);
    for (const [key, share] of [['a/x', 3 / 6], ['b/x', 2 / 6], ['c/x', 1 / 6]] as const) {
      const seen = chosen.filter((each) => each === key).length / sessions.length;
      assert.ok(Math.abs(seen - share) < 0.025, `${key}: ${seen} of sessions, weight share ${share}`);
    }
  });

  test('adding a deployment moves only the sessions it wins; removing it sends them back', () => {
    const before = firstChoices([deployment('a/x'), deployment('b/x')]);
    const after = firstChoices([deployment('a/x'), deployment('b/x'), deployment('c/x')]);
    const moved = before.filter((key, i) => key !== after[i]);
    assert.ok(moved.length > 0);
    assert.ok(before.every((key, i) => after[i] === key || after[i] === 'c/x'), 'a session moved between the deployments that stayed');
    assert.ok(Math.abs(moved.length / sessions.length - 1 / 3) < 0.025, `moved ${moved.length / sessions.length} of sessions, the new one's share is 1/3`);
  });

  test("a session's second choice is its first choice once the first is gone", () => {
    const all = [deployment('a/x', 2), deployment('b/x', 1), deployment('c/x', 1)];
    for (const session of sessions.slice(0, 500)) {
      const [first, second] = rendezvousOrder(all, session);
      const without = all.filter((each) => each !== first);
      assert.equal(rendezvousOrder(without, session)[0], second);
    }
  });

  test('the same session ID of two accounts is two independent sessions', () => {
    const all = [deployment('a/x'), deployment('b/x'), deployment('c/x')];
    const differ = Array.from({ length: 300 }, (_, i) => rendezvousOrder(all, `acct_1\0s${i}`)[0] !== rendezvousOrder(all, `acct_2\0s${i}`)[0]);
    const share = differ.filter(Boolean).length / differ.length;
    assert.ok(Math.abs(share - 2 / 3) < 0.1, `${share} of shared IDs land apart; independent choices among 3 land apart 2/3 of the time`);
  });
});
