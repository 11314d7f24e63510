import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { ProviderConfig } from '../../config/config-schema.js';
import { collectStream } from '../../core/collect-stream.js';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureSseEvents, toSseBody } from '../../../test/helpers/upstream-fixtures.js';
import { readOpenAIError } from '../openai/read-error.js';
import { createOpenAICompatibleProvider } from './index.js';
import { resolveQuirks } from './quirks.js';

describe('resolveQuirks', () => {
  it('gives OpenAI its own defaults', () => {
    assert.deepEqual(resolveQuirks(undefined, 'openai'), { streamOptions: true, maxTokensField: 'max_completion_tokens', developerRole: true, systemAnywhere: true });
  });

  it('gives compatible servers the common denominator', () => {
    assert.deepEqual(resolveQuirks(undefined, 'openai-compatible'), { streamOptions: true, maxTokensField: 'max_tokens', developerRole: false, systemAnywhere: false });
    assert.deepEqual(resolveQuirks({}, 'openai-compatible'), resolveQuirks(undefined, 'openai-compatible'));
  });

  it('lets the configuration override each default', () => {
    assert.deepEqual(
      resolveQuirks({ stream_options: false, max_tokens_field: 'max_completion_tokens', developer_role: true, system_anywhere: true }, 'openai-compatible'),
      { streamOptions: false, maxTokensField: 'max_completion_tokens', developerRole: true, systemAnywhere: true },
    );
    assert.deepEqual(resolveQuirks({ developer_role: false }, 'openai'), {
      streamOptions: true,
      maxTokensField: 'max_completion_tokens',
      developerRole: false,
      systemAnywhere: true,
    });
  });
});

describe('createOpenAICompatibleProvider', () => {
  it('refuses to start without base_url, naming the provider', () => {
    assert.throws(() => createOpenAICompatibleProvider({ id: 'local-llama', type: 'openai-compatible' } as ProviderConfig), (error) => {
      assert.ok(!(error instanceof GatewayError));
      assert.match((error as Error).message, /'local-llama'.*base_url/);
      return true;
    });
  });

  it('streams from a keyless local server with the compatible quirks applied', async () => {
    const received: Array<{ body: Record<string, unknown>; authorization?: string; url?: string }> = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (part: Buffer) => (text += part.toString()));
      req.on('end', () => {
        received.push({ body: JSON.parse(text) as Record<string, unknown>, authorization: req.headers.authorization, url: req.url });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(toSseBody(fixtureSseEvents('openai-chat/stream-tool-call-include-usage.chunks.txt', 'openai-chat')));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const provider = createOpenAICompatibleProvider({ id: 'local', type: 'openai-compatible', base_url } as ProviderConfig);
    try {
      assert.equal(provider.type, 'openai-compatible');
      assert.equal(provider.id, 'local');
      assert.ok(provider.passThroughs?.['openai-chat']);
      const request = modelRequest([userSays('What is 1231 * 2331?')], { maxOutputTokens: 30 });
      const response = await collectStream(provider.stream(request, { upstreamModel: 'llama3.1', signal: new AbortController().signal }));
      assert.deepEqual(response.content, [{ type: 'tool_call', id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply', arguments: '{"a":1231,"b":2331}' }]);
      assert.equal(response.finishReason, 'tool_calls');
      assert.equal(response.usage.inputTokens, 54);
      const [call] = received;
      assert.equal(call?.url, '/v1/chat/completions');
      assert.equal(call?.authorization, undefined);
      assert.equal(call?.body.max_tokens, 30);
      assert.equal(call?.body.model, 'llama3.1');
      assert.deepEqual(call?.body.stream_options, { include_usage: true });
    } finally {
      await provider.close?.();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('readOpenAIError', () => {
  it('reads OpenAI’s shape and the imitations', () => {
    assert.deepEqual(readOpenAIError({ error: { message: 'bad', type: 'invalid_request_error', param: 'x', code: 'c' } }), {
      message: 'bad',
      type: 'invalid_request_error',
      param: 'x',
      code: 'c',
    });
    assert.deepEqual(readOpenAIError({ error: 'model "x" not found, try pulling it first' }), { message: 'model "x" not found, try pulling it first' });
    assert.deepEqual(readOpenAIError({ object: 'error', message: 'too long', type: 'BadRequestError', param: null, code: 400 }), {
      message: 'too long',
      type: 'BadRequestError',
      param: undefined,
      code: '400',
    });
    assert.deepEqual(readOpenAIError({ detail: 'Not Found' }), { message: 'Not Found' });
    assert.deepEqual(readOpenAIError({ detail: [{ loc: ['body', 'messages'], msg: 'Field required' }] }), { message: 'Field required' });
    assert.deepEqual(readOpenAIError(undefined), {});
    assert.deepEqual(readOpenAIError({ unrelated: true }), {});
  });
});
