import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelRequest } from '../core/internal-representation.js';
import { rewriteRequestImageUrls } from './rewrite-request-image-urls.js';

const request = (content: ModelRequest['messages'][number]['content']): ModelRequest => ({
  model: 'm',
  instructions: [],
  messages: [{ role: 'user', content }],
  tools: [],
  toolChoice: { type: 'auto' },
  responseFormat: { type: 'text' },
  stopSequences: [],
});

test('image URLs in messages and tool results become base64; files, inline images and the original stay as they were', () => {
  const original = request([
    { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'low' },
    { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
    { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
    { type: 'tool_result', callId: 'c', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/b.png' } }] },
  ]);
  const copy = structuredClone(original);
  const seen: string[] = [];
  const rewritten = rewriteRequestImageUrls(original, (url) => {
    seen.push(url);
    return { mediaType: 'image/png', data: url.endsWith('a.png') ? 'QQ==' : 'Qg==' };
  });
  assert.deepEqual(seen, ['https://example.com/a.png', 'https://example.com/b.png']);
  assert.deepEqual(rewritten.messages[0]!.content, [
    { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'QQ==' }, detail: 'low' },
    { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
    { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
    { type: 'tool_result', callId: 'c', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'Qg==' } }] },
  ]);
  assert.deepEqual(original, copy, 'the router may still send the original elsewhere');
});

test('a request the visitor leaves alone is returned as it is', () => {
  const original = request([{ type: 'image', source: { kind: 'url', url: 'data:image/svg+xml,<svg/>' } }]);
  assert.equal(rewriteRequestImageUrls(original, () => undefined), original);
});
