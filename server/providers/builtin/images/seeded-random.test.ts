import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom, hashSeed } from './seeded-random.js';

describe('hashSeed', () => {
  it('is stable for the same parts and differs for others', () => {
    assert.equal(hashSeed('a red ball', 64, 64, 0), hashSeed('a red ball', 64, 64, 0));
    assert.notEqual(hashSeed('a red ball', 64, 64, 0), hashSeed('a red ball', 64, 64, 1));
    assert.notEqual(hashSeed('a red ball', 64, 64, 0), hashSeed('a blue ball', 64, 64, 0));
  });
});

describe('createSeededRandom', () => {
  it('repeats its sequence for the same seed', () => {
    const draw = (seed: number) => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 5 }, () => random.next());
    };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
  });

  it('keeps numbers within their ranges', () => {
    const random = createSeededRandom(7);
    for (let i = 0; i < 1000; i++) {
      const unit = random.next();
      assert.ok(unit >= 0 && unit < 1);
      const whole = random.int(2, 4);
      assert.ok(Number.isInteger(whole) && whole >= 2 && whole <= 4);
      assert.ok(['a', 'b'].includes(random.pick(['a', 'b'])));
    }
  });
});
