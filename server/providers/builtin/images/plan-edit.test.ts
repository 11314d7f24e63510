import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourWords } from './colour-words.js';
import { planEdit, planFallbackEdit, planVariantEdit } from './plan-edit.js';

const kinds = (prompt: string) => planEdit(prompt).map((step) => step.kind);

describe('planEdit', () => {
  it('runs matched steps in the fixed order, whatever the prompt order', () => {
    assert.deepEqual(kinds('Pixelate it, mirror it, then make it Black-and-White'), ['greyscale', 'flop', 'pixelate']);
    assert.deepEqual(kinds('turn it upside down and invert'), ['negate', 'rotate180']);
  });

  it('reads brightness and saturation both ways', () => {
    assert.deepEqual(planEdit('brighter and vivid'), [
      { kind: 'brightness', factor: 1.4 },
      { kind: 'saturation', factor: 1.8 },
    ]);
    assert.deepEqual(planEdit('a muted night scene'), [
      { kind: 'brightness', factor: 0.55 },
      { kind: 'saturation', factor: 0.35 },
    ]);
  });

  it('tints toward named colours, but not for black and white', () => {
    assert.deepEqual(planEdit('make it red'), [{ kind: 'tint', colour: colourWords.red, strength: 0.35 }]);
    assert.deepEqual(kinds('black and white'), ['greyscale']);
    assert.deepEqual(kinds('sepia with a black cat'), ['sepia', 'tint']);
  });

  it('finds nothing in a prompt without keywords', () => {
    assert.deepEqual(planEdit('add a cat'), []);
  });
});

describe('planFallbackEdit', () => {
  it('rotates the hue by 60 to 300 degrees and tints, stable per prompt', () => {
    for (const prompt of ['add a cat', 'remove the tree', 'x', '']) {
      const [hue, tint] = planFallbackEdit(prompt);
      assert.ok(hue.kind === 'hue' && hue.degrees >= 60 && hue.degrees <= 300, prompt);
      assert.equal(tint.kind, 'tint');
      assert.deepEqual(planFallbackEdit(prompt), [hue, tint]);
    }
  });
});

describe('planVariantEdit', () => {
  it('leaves variant 0 alone and spreads the others round the hue wheel', () => {
    assert.deepEqual(planVariantEdit(0, 3), []);
    const hues = [1, 2].map((variant) => planVariantEdit(variant, 3)[0]);
    assert.deepEqual(hues, [
      { kind: 'hue', degrees: 120 },
      { kind: 'hue', degrees: 240 },
    ]);
  });
});
