import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { operationRoutes } from '../../../generated/operations.js';
import { OperationTable } from './operation-table.js';

const table = new OperationTable(operationRoutes);
const matched = (method: string, target: string) => {
  const match = table.match(method, target);
  return match && { operationId: match.route.operationId, ...match.pathParams };
};

describe('OperationTable.match: one rule for every spelling', () => {
  test('literals are case-sensitive and never percent-decoded', () => {
    assert.deepEqual(matched('POST', '/v1/chat/completions'), { operationId: 'createChatCompletion' });
    for (const target of ['/V1/chat/completions', '/v1/Chat/completions', '/v1/%63hat/completions', '/v1/chat%2Fcompletions', '/Admin/v1/accounts']) {
      assert.equal(matched(target.startsWith('/Admin') ? 'GET' : 'POST', target), undefined, target);
    }
  });

  test('empty segments are ignored: doubled and trailing slashes', () => {
    for (const target of ['/v1//chat/completions', '/v1/chat/completions/', '//v1/chat//completions//']) {
      assert.deepEqual(matched('POST', target), { operationId: 'createChatCompletion' }, target);
    }
  });

  test('parameters are decoded once; a model ID takes its slashes, literal or encoded', () => {
    assert.deepEqual(matched('GET', '/v1/models/builtin/echo'), { operationId: 'retrieveModel', model: 'builtin/echo' });
    assert.deepEqual(matched('GET', '/v1/models/builtin%2Fecho'), { operationId: 'retrieveModel', model: 'builtin/echo' });
    assert.deepEqual(matched('GET', '/v1/models/a%252Fb'), { operationId: 'retrieveModel', model: 'a%2Fb' }, 'decoded once, not twice');
    assert.deepEqual(matched('GET', '/v1/responses/resp_%41'), { operationId: 'getResponse', response_id: 'resp_A' });
    assert.deepEqual(matched('GET', '/v1/responses/%zz'), { operationId: 'getResponse', response_id: '%zz' }, 'a malformed escape stays as sent');
    assert.equal(matched('GET', '/v1/responses/a/b'), undefined, 'other parameters are one segment');
  });

  test('a Gemini action is a literal suffix: the more specific template wins, and its case matters', () => {
    assert.deepEqual(matched('POST', '/v1beta/models/builtin/echo:generateContent'), { operationId: 'generateContent', model: 'builtin/echo' });
    assert.deepEqual(matched('POST', '/v1/models/ollama/llama3:8b:countTokens'), { operationId: 'countTokensV1', model: 'ollama/llama3:8b' });
    assert.deepEqual(matched('GET', '/v1/models/ollama/llama3:8b'), { operationId: 'retrieveModel', model: 'ollama/llama3:8b' });
    assert.equal(matched('POST', '/v1beta/models/m:GenerateContent'), undefined);
    // A resource name without `models/` (what @ai-sdk/google sends for an ID with `/`) has its own operation,
    // so `models/` with nothing after it is a model named `models/`, which the handler answers with a 404.
    assert.deepEqual(matched('POST', '/v1beta/builtin/echo:generateContent'), { operationId: 'generateContentByName', model: 'builtin/echo' });
    assert.deepEqual(matched('POST', '/v1beta/models/:generateContent'), { operationId: 'generateContentByName', model: 'models/' });
    assert.equal(matched('POST', '/v1beta/:generateContent'), undefined, 'a model cannot be empty');
    assert.equal(table.familyOfUnmatched('/v1/:generateContent').family, 'gemini', 'but the 404 is in the shape of the operation it misses');
  });

  test('the method picks among a path’s operations; HEAD is GET; the query and an absolute form do not count', () => {
    assert.deepEqual(matched('DELETE', '/v1/keys/key_1'), { operationId: 'revokeMyKey', key_id: 'key_1' });
    assert.deepEqual(matched('PATCH', '/v1/keys/key_1?x=1'), { operationId: 'renameMyKey', key_id: 'key_1' });
    assert.deepEqual(matched('HEAD', '/healthz'), { operationId: 'getHealth' });
    assert.deepEqual(matched('GET', 'http://gateway.example/v1/models?key=k'), { operationId: 'listModels' });
    assert.equal(matched('PUT', '/v1/chat/completions'), undefined);
    assert.equal(matched('OPTIONS', '*'), undefined);
  });
});

describe('OperationTable.familyOfUnmatched', () => {
  test('the family of the operation the target nearly is, ignoring case', () => {
    assert.equal(table.familyOfUnmatched('/V1/Messages').family, 'anthropic');
    assert.equal(table.familyOfUnmatched('/v1beta/models/m:GenerateContent').route?.operationId, 'generateContent');
    assert.equal(table.familyOfUnmatched('/v1/models/m:GENERATECONTENT').family, 'gemini');
    assert.equal(table.familyOfUnmatched('/ADMIN/v1/keys').family, 'admin');
  });

  test('else the family every operation under its longest known prefix shares, else OpenAI', () => {
    assert.equal(table.familyOfUnmatched('/v1/messages/batches').family, 'anthropic');
    assert.equal(table.familyOfUnmatched('/v1beta/files').family, 'gemini');
    assert.equal(table.familyOfUnmatched('/admin/v2/anything').family, 'admin');
    assert.equal(table.familyOfUnmatched('/v1/embeddings').family, 'openai');
    assert.equal(table.familyOfUnmatched('/nowhere').family, 'openai');
  });
});
