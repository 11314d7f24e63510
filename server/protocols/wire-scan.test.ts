import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanWireBody, type WireScanner } from '../access/wire-scan/wire-scan.js';
import type { ClientProtocolName } from '../core/client-protocol.js';
import { protocolDefinition, protocolDefinitions } from './registry.js';

/** Every protocol whose bodies the permissions read field by field. */
const protocols = protocolDefinitions.flatMap(({ name, wireScanner }) => (wireScanner ? [name] : []));
const scannerOf = (name: ClientProtocolName): WireScanner => protocolDefinition(name).wireScanner!;

describe('scanWireBody', () => {
  it('finds nothing in a body that is not an object', () => {
    for (const protocol of protocols) {
      for (const body of [undefined, null, 'text', 42, [], [{ tools: [{ type: 'web_search' }] }]]) {
        assert.deepEqual(scanWireBody(scannerOf(protocol), body), { uses: [], costOptions: [], unknown: [], outputTokens: [] }, `${protocol} ${JSON.stringify(body)}`);
      }
    }
  });

  it("reads each body by its own protocol's fields", () => {
    const body = { max_tokens: 10, maxOutputTokens: 10 };
    assert.deepEqual(scanWireBody(scannerOf('openai-chat'), body).unknown, ['maxOutputTokens']);
    assert.deepEqual(scanWireBody(scannerOf('anthropic-messages'), body).unknown, ['maxOutputTokens']);
    assert.deepEqual(scanWireBody(scannerOf('openai-responses'), body).unknown, ['max_tokens', 'maxOutputTokens']);
    assert.deepEqual(scanWireBody(scannerOf('gemini'), body).unknown, ['max_tokens', 'maxOutputTokens'], 'Gemini keeps it in generationConfig');
  });

  it('reads a key such as constructor or __proto__ as unknown, never from a prototype', () => {
    const body = JSON.parse('{"constructor": 1, "__proto__": {"tools": []}, "toString": "x"}');
    for (const protocol of protocols) assert.deepEqual(scanWireBody(scannerOf(protocol), body).unknown, ['constructor', '__proto__', 'toString'], protocol);
  });
});
