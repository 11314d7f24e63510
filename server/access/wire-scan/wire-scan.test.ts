import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireProtocol } from '../../core/wire-protocol.js';
import { scanWireBody } from './wire-scan.js';

const protocols: WireProtocol[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

describe('scanWireBody', () => {
  it('finds nothing in a body that is not an object', () => {
    for (const protocol of protocols) {
      for (const body of [undefined, null, 'text', 42, [], [{ tools: [{ type: 'web_search' }] }]]) {
        assert.deepEqual(scanWireBody(protocol, body), { uses: [], costOptions: [], unknown: [], outputTokens: [] }, `${protocol} ${JSON.stringify(body)}`);
      }
    }
  });

  it("reads each body by its own protocol's fields", () => {
    const body = { max_tokens: 10, maxOutputTokens: 10 };
    assert.deepEqual(scanWireBody('openai-chat', body).unknown, ['maxOutputTokens']);
    assert.deepEqual(scanWireBody('anthropic-messages', body).unknown, ['maxOutputTokens']);
    assert.deepEqual(scanWireBody('openai-responses', body).unknown, ['max_tokens', 'maxOutputTokens']);
    assert.deepEqual(scanWireBody('gemini', body).unknown, ['max_tokens', 'maxOutputTokens'], 'Gemini keeps it in generationConfig');
  });

  it('reads a key such as constructor or __proto__ as unknown, never from a prototype', () => {
    const body = JSON.parse('{"constructor": 1, "__proto__": {"tools": []}, "toString": "x"}');
    for (const protocol of protocols) assert.deepEqual(scanWireBody(protocol, body).unknown, ['constructor', '__proto__', 'toString'], protocol);
  });
});
