import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { protocolFamilyForPath } from './protocol-family.js';

describe('protocolFamilyForPath', () => {
  it('takes a Gemini action under /v1 only on a model path', () => {
    assert.equal(protocolFamilyForPath('/v1/models/gemini-2.5-flash:generateContent'), 'gemini');
    assert.equal(protocolFamilyForPath('/v1/models/org%2Fmodel:streamGenerateContent'), 'gemini');
    // Found by test/bad-input-parameters.test.ts: an OpenAI ID ending like an action got a Gemini error
    // body, which OpenAI's route does not declare (a 500 with response validation on).
    assert.equal(protocolFamilyForPath('/v1/responses/x:countTokens'), 'openai');
    assert.equal(protocolFamilyForPath('/v1/keys/key_1:generateContent'), 'openai');
    assert.equal(protocolFamilyForPath('/v1/images/files/a:countTokens'), 'openai');
  });
});
