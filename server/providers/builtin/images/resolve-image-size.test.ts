import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../../core/gateway-error.js';
import { resolveImageSize } from './resolve-image-size.js';

const square = { width: 1024, height: 1024 };

describe('resolveImageSize', () => {
  it('parses WIDTHxHEIGHT', () => {
    assert.deepEqual(resolveImageSize('640x480', square), { width: 640, height: 480 });
    assert.deepEqual(resolveImageSize('16x4096'), { width: 16, height: 4096 });
  });

  it('falls back for absent or auto', () => {
    assert.equal(resolveImageSize(undefined, square), square);
    assert.equal(resolveImageSize('auto', square), square);
    assert.equal(resolveImageSize('auto'), undefined);
  });

  it('refuses malformed sizes and sides outside 16..4096', () => {
    for (const size of ['big', '15x64', '64x4097', '0x0', '1024']) {
      assert.throws(
        () => resolveImageSize(size, square),
        (error: unknown) => error instanceof GatewayError && error.status === 400 && error.param === 'size',
        size,
      );
    }
  });
});
