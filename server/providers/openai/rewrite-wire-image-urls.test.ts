import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rewriteChatImageUrls, rewriteResponsesImageUrls } from './rewrite-wire-image-urls.js';

const png = { mediaType: 'image/png', data: 'iVBO' };

test('Chat Completions: image_url parts get data: URLs, each visited with the field the client named', () => {
  const body = {
    model: 'm',
    messages: [
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } }] },
    ],
  };
  const copy = structuredClone(body);
  const params: Array<string | undefined> = [];
  const rewritten = rewriteChatImageUrls(body, (_url, param) => (params.push(param), png));
  assert.deepEqual(params, ['messages[1].content[1].image_url.url']);
  assert.deepEqual((rewritten.messages as any)[1].content[1], { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO', detail: 'high' } });
  assert.deepEqual(body, copy, 'not mutated');
  assert.equal(rewriteChatImageUrls(body, () => undefined), body, 'unchanged when nothing is inlined');
});

test('Responses API: input_image parts in messages and in function call outputs', () => {
  const body = {
    input: [
      { role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] },
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'https://example.com/b.png' }] },
      { type: 'function_call_output', call_id: 'd', output: 'text' },
    ],
  };
  const params: Array<string | undefined> = [];
  const rewritten = rewriteResponsesImageUrls(body, (_url, param) => (params.push(param), png));
  assert.deepEqual(params, ['input[0].content[0].image_url', 'input[1].output[0].image_url']);
  assert.equal((rewritten.input as any)[0].content[0].image_url, 'data:image/png;base64,iVBO');
  assert.equal((rewritten.input as any)[1].output[0].image_url, 'data:image/png;base64,iVBO');
  assert.equal((rewritten.input as any)[2].output, 'text');
  assert.equal(body.input[0]!.content![0]!.image_url, 'https://example.com/a.png', 'not mutated');
});
