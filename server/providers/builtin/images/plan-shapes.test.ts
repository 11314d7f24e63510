import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findShapeKinds, planShapes } from './plan-shapes.js';
import { createSeededRandom } from './seeded-random.js';

const canvas = { width: 200, height: 100 };
const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00'];

describe('findShapeKinds', () => {
  it('maps keywords to kinds in order of mention, once each', () => {
    assert.deepEqual(findShapeKinds('Waves under the sun, the moon and mountains'), ['wave', 'circle', 'triangle']);
    assert.deepEqual(findShapeKinds('a cat'), []);
  });
});

describe('planShapes', () => {
  it('draws the named kinds back to front, first named kind in the first colour', () => {
    const shapes = planShapes('the sea under a sun', canvas, colours, createSeededRandom(5));
    const types = shapes.map((shape) => shape.type);
    assert.equal(types[0], 'circle');
    assert.equal(types.at(-1), 'wave');
    assert.ok(types.filter((type) => type === 'wave').length >= 2);
    const circle = shapes.find((shape) => shape.type === 'circle');
    assert.equal(circle?.fill, '#00ff00');
    assert.equal(shapes.find((shape) => shape.type === 'wave')?.fill, '#ff0000');
  });

  it('draws stars as ten-cornered polygons and mountains as triangles', () => {
    const shapes = planShapes('stars', canvas, colours, createSeededRandom(1));
    for (const shape of shapes) assert.ok(shape.type === 'polygon' && shape.points.length === 10);
    const mountains = planShapes('mountain', canvas, colours, createSeededRandom(1));
    for (const shape of mountains) assert.ok(shape.type === 'polygon' && shape.points.length === 3);
  });

  it('draws four to seven seeded shapes when no keyword is named', () => {
    for (let seed = 0; seed < 20; seed++) {
      const shapes = planShapes('an abstract idea', canvas, colours, createSeededRandom(seed));
      assert.ok(shapes.length >= 4 && shapes.length <= 7);
    }
  });

  it('is deterministic for a seed', () => {
    const plan = (seed: number) => planShapes('a house on a hill', canvas, colours, createSeededRandom(seed));
    assert.deepEqual(plan(9), plan(9));
    assert.notDeepEqual(plan(9), plan(10));
  });
});
