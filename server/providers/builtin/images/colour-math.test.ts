import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hexToRgb, hslToHex, mixHex, rgbToHex } from './colour-math.js';

describe('colour math', () => {
  it('converts between hex and rgb', () => {
    assert.deepEqual(hexToRgb('#ff8000'), [255, 128, 0]);
    assert.equal(rgbToHex([255, 128, 0]), '#ff8000');
    assert.equal(rgbToHex([300, -4, 12.6]), '#ff000d');
  });

  it('mixes two colours', () => {
    assert.equal(mixHex('#ff0000', '#ffffff', 0.5), '#ff8080');
    assert.equal(mixHex('#123456', '#000000', 0), '#123456');
  });

  it('converts hsl, wrapping the hue', () => {
    assert.equal(hslToHex(0, 1, 0.5), '#ff0000');
    assert.equal(hslToHex(120, 1, 0.5), '#00ff00');
    assert.equal(hslToHex(-120, 1, 0.5), '#0000ff');
    assert.equal(hslToHex(0, 0, 1), '#ffffff');
  });
});
