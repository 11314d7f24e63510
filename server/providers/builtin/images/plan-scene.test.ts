import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planScene } from './plan-scene.js';

const canvas = { width: 64, height: 64 };

describe('planScene', () => {
  it('depends only on prompt, size and variant', () => {
    const plan = (prompt: string, variant = 0) => planScene({ prompt, canvas, variant, transparent: false });
    assert.deepEqual(plan('a red sun'), plan('a red sun'));
    assert.notDeepEqual(plan('a red sun'), plan('a blue moon'));
    assert.notDeepEqual(plan('a red sun', 0), plan('a red sun', 1));
    assert.notDeepEqual(plan('a red sun'), planScene({ prompt: 'a red sun', canvas: { width: 64, height: 32 }, variant: 0, transparent: false }));
  });

  it('keeps the same shapes without a background when transparent', () => {
    const opaque = planScene({ prompt: 'stars', canvas, variant: 2, transparent: false });
    const transparent = planScene({ prompt: 'stars', canvas, variant: 2, transparent: true });
    assert.ok(opaque.background);
    assert.equal(transparent.background, undefined);
    assert.deepEqual(transparent.shapes, opaque.shapes);
  });
});
