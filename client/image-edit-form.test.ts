import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitImageEdit, toImageEditForm } from './image-edit-form.js';

const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
const webp = new Blob([new Uint8Array([0x52, 0x49, 0x46, 0x46])], { type: 'image/webp' });

describe('image edit form', () => {
  test('sends one file as `image`, named from its type', () => {
    const { fields, files } = splitImageEdit({ image: png, prompt: 'Add a hat' });
    const form = toImageEditForm(fields, files);
    const image = form.get('image');
    assert.ok(image instanceof File);
    assert.equal(image.name, 'image.png');
    assert.equal(image.type, 'image/png');
    assert.equal(form.has('image[]'), false);
    assert.equal(form.get('prompt'), 'Add a hat');
  });

  test('sends several files, or an array of one, as repeated `image[]`, keeping File names', () => {
    const named = new File([png], 'cat.png', { type: 'image/png' });
    const several = toImageEditForm({ prompt: 'x' }, { image: [named, webp] });
    assert.deepEqual(several.getAll('image[]').map((file) => (file as File).name), ['cat.png', 'image_2.webp']);
    assert.equal(several.has('image'), false);
    assert.equal(toImageEditForm({ prompt: 'x' }, { image: [png] }).getAll('image[]').length, 1);
  });

  test('sends the mask and every defined scalar as a string part', () => {
    const { fields, files } = splitImageEdit({
      image: png,
      mask: png,
      prompt: 'Add a hat',
      model: 'builtin/image',
      n: 2,
      size: '1024x1024',
      response_format: 'b64_json',
      output_compression: 80,
      user: undefined,
    });
    assert.deepEqual(fields, { prompt: 'Add a hat', model: 'builtin/image', n: '2', size: '1024x1024', response_format: 'b64_json', output_compression: '80', user: undefined });
    const form = toImageEditForm(fields, files);
    assert.equal((form.get('mask') as File).name, 'mask.png');
    const strings: Record<string, string> = {};
    form.forEach((value, name) => {
      if (typeof value === 'string') strings[name] = value;
    });
    assert.deepEqual(strings, { prompt: 'Add a hat', model: 'builtin/image', n: '2', size: '1024x1024', response_format: 'b64_json', output_compression: '80' });
  });
});
