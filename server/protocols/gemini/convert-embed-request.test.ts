import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../core/gateway-error.js';
import { camelCaseFieldNames } from './camel-case-field-names.js';
import { convertEmbedRequests } from './convert-embed-request.js';
import type { GeminiEmbedContentRequest } from './wire-types.js';

const text = (value: string, extra: Partial<GeminiEmbedContentRequest> = {}): GeminiEmbedContentRequest => ({ content: { parts: [{ text: value }] }, ...extra });

describe('convertEmbedRequests', () => {
  it('makes one input per request, text parts joined, with the task, title and dimensions', () => {
    const converted = convertEmbedRequests(
      [
        { model: 'models/g-embed', content: { parts: [{ text: 'a' }, { text: 'b' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'T', outputDimensionality: 8 },
        text('c', { model: 'models/g-embed', taskType: 'RETRIEVAL_DOCUMENT', title: 'T', outputDimensionality: 8 }),
      ],
      'g-embed',
      true,
    );
    assert.deepEqual(converted, {
      model: 'g-embed',
      inputs: [
        { type: 'text', text: 'a\nb' },
        { type: 'text', text: 'c' },
      ],
      dimensions: 8,
      task: 'retrieval_document',
      title: 'T',
    });
  });

  it('reads snake_case field names once the front door has renamed them, and says nothing for TASK_TYPE_UNSPECIFIED', () => {
    const snake = { content: { parts: [{ text: 'x' }] }, task_type: 'CODE_RETRIEVAL_QUERY', output_dimensionality: 3 } as GeminiEmbedContentRequest;
    assert.deepEqual(convertEmbedRequests([camelCaseFieldNames(snake)], 'm', false), { model: 'm', inputs: [{ type: 'text', text: 'x' }], dimensions: 3, task: 'code_retrieval_query' });
    assert.equal(convertEmbedRequests([text('x', { taskType: 'TASK_TYPE_UNSPECIFIED' })], 'm', false).task, undefined);
  });

  it('takes the bare model ID or models/<id>, and refuses another model', () => {
    assert.doesNotThrow(() => convertEmbedRequests([text('x', { model: 'builtin/embed' })], 'builtin/embed', true));
    assert.throws(
      () => convertEmbedRequests([text('x', { model: 'models/builtin/embed' }), text('y', { model: 'models/other' })], 'builtin/embed', true),
      (error: GatewayError) => error.status === 400 && error.param === 'requests[1].model',
    );
  });

  it('refuses a batch whose requests ask for different settings', () => {
    assert.throws(
      () => convertEmbedRequests([text('x', { outputDimensionality: 4 }), text('y', { outputDimensionality: 8 })], 'm', true),
      (error: GatewayError) => error.status === 400 && error.param === 'requests[1].outputDimensionality',
    );
  });

  it('refuses parts that are not text, and content without parts', () => {
    const image = { content: { parts: [{ text: 'x' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }] } };
    assert.throws(() => convertEmbedRequests([image], 'm', false), (error: GatewayError) => error.status === 400 && error.param === 'content.parts[1]');
    assert.throws(() => convertEmbedRequests([{ content: { parts: [] } }], 'm', false), (error: GatewayError) => error.param === 'content.parts');
  });
});
