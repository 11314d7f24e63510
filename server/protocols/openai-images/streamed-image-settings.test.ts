import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImageData } from '../../core/image-types.js';
import { streamedImageSettings } from './streamed-image-settings.js';

const png = ImageData.fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=');

describe('streamedImageSettings', () => {
  it("passes OpenAI's own values on", () => {
    assert.deepEqual(streamedImageSettings({ size: '1536x1024', quality: 'high', background: 'transparent', outputFormat: 'webp' }, png), {
      size: '1536x1024',
      quality: 'high',
      background: 'transparent',
      output_format: 'webp',
    });
  });

  it('says auto for what OpenAI has no name for or the upstream did not say, and reads the format from the bytes', () => {
    assert.deepEqual(streamedImageSettings({ size: '256x256', quality: 'hd' }, png), { size: 'auto', quality: 'auto', background: 'auto', output_format: 'png' });
    assert.deepEqual(streamedImageSettings({ quality: 'auto' }, png), { size: 'auto', quality: 'auto', background: 'auto', output_format: 'png' });
  });
});
