import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { droppedParamNames, withoutDroppedParams } from '../../core/dropped-params.js';
import { geminiDroppedFields } from './gemini-params.js';

describe('gemini dropped params', () => {
  const body = {
    contents: [],
    tools: [{ functionDeclarations: [{ name: 'f' }] }],
    generationConfig: { temperature: 1, responseMimeType: 'application/json', responseJsonSchema: { type: 'object' }, thinkingConfig: { thinkingBudget: 10 } },
  };

  it('names only the fields present, as dotted paths', () => {
    assert.deepEqual(droppedParamNames(geminiDroppedFields, body, ['tools', 'json_schema', 'reasoning']), [
      'tools',
      'generationConfig.responseMimeType',
      'generationConfig.responseJsonSchema',
      'generationConfig.thinkingConfig',
    ]);
    assert.deepEqual(droppedParamNames(geminiDroppedFields, { contents: [] }, ['tools', 'reasoning']), []);
  });

  it('removes them from a copy, nested ones included', () => {
    const { body: copy, removed } = withoutDroppedParams(geminiDroppedFields, body, ['tools', 'reasoning']);
    assert.deepEqual(removed, ['tools', 'generationConfig.thinkingConfig']);
    assert.deepEqual(copy, { contents: [], generationConfig: { temperature: 1, responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } } });
    assert.ok('thinkingConfig' in body.generationConfig, 'the original is untouched');
  });
});
