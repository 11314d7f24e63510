import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourWords, moodPalettes } from './colour-words.js';
import { planPalette } from './plan-palette.js';
import { createSeededRandom } from './seeded-random.js';

const random = () => createSeededRandom(1234);

describe('planPalette', () => {
  it('puts named colours first', () => {
    const palette = planPalette('a green and pink kite', random());
    assert.deepEqual(palette.shapes.slice(0, 2), [colourWords.green, colourWords.pink]);
    assert.ok(palette.shapes.length >= 4);
  });

  it('uses a mood background, keeping named colours for shapes', () => {
    const palette = planPalette('a gold coin at night', random());
    assert.deepEqual(palette.background, moodPalettes.night.background);
    assert.equal(palette.shapes[0], colourWords.gold);
  });

  it('draws a harmony from the seed when nothing is named', () => {
    const a = planPalette('a cat', createSeededRandom(1));
    const b = planPalette('a cat', createSeededRandom(2));
    assert.deepEqual(planPalette('a cat', createSeededRandom(1)), a);
    assert.notDeepEqual(a, b);
    for (const colour of [...a.background, ...a.shapes]) assert.match(colour, /^#[0-9a-f]{6}$/);
  });
});
