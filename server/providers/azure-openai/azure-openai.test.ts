import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configSchema } from '../../config/config-schema.js';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { convertStream } from '../openai/convert-stream.js';
import { azurePath } from './azure-path.js';
import { readAzureOpenAIError } from './read-error.js';

describe('azurePath', () => {
  it('puts the deployment and api-version in the URL of per-deployment operations', () => {
    const path = azurePath('2024-10-21');
    assert.equal(path('/chat/completions', 'gpt-4o'), '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    assert.equal(path('/images/edits', 'my image'), '/openai/deployments/my%20image/images/edits?api-version=2024-10-21');
    assert.equal(path('/embeddings', 'ada'), '/openai/deployments/ada/embeddings?api-version=2024-10-21');
    // The Responses API is not per deployment: the deployment goes as `model` in the body.
    assert.equal(path('/responses', 'gpt-4o'), '/openai/responses?api-version=2024-10-21');
  });

  it('without an api-version uses the v1 API, model in the body', () => {
    assert.equal(azurePath(undefined)('/chat/completions', 'gpt-4o'), '/openai/v1/chat/completions');
    assert.equal(azurePath(undefined)('/responses', 'gpt-4o'), '/openai/v1/responses');
  });
});

describe('azure-openai config', () => {
  const parse = (provider: Record<string, unknown>) => configSchema.safeParse({ providers: [{ id: 'az', type: 'azure-openai', ...provider }] });
  const messages = (provider: Record<string, unknown>) => {
    const result = parse(provider);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('needs the resource endpoint and a key, and checks the api-version form', () => {
    assert.deepEqual(messages({ base_url: 'https://r.openai.azure.com', api_key: 'k', api_version: '2025-04-01-preview' }), []);
    assert.deepEqual(messages({ base_url: 'https://r.openai.azure.com', api_key: 'k' }), []);
    assert.match(messages({ api_key: 'k' }).join(), /providers\.0\.base_url: an azure-openai provider needs base_url/);
    assert.match(messages({ base_url: 'https://r.openai.azure.com' }).join(), /providers\.0\.api_key: .*api-key header/);
    assert.match(messages({ base_url: 'https://r.openai.azure.com/openai/v1', api_key: 'k' }).join(), /without \/openai/);
    assert.match(messages({ base_url: 'https://r.openai.azure.com/openai', api_key: 'k' }).join(), /without \/openai/);
    assert.match(messages({ base_url: 'https://r.openai.azure.com', api_key: 'k', api_version: 'latest' }).join(), /api_version 'latest' is not/);
  });

  it('refuses api_version on other provider types', () => {
    const result = configSchema.safeParse({ providers: [{ id: 'o', type: 'openai', api_key: 'k', api_version: '2024-10-21' }] });
    assert.equal(result.success, false);
    assert.match(result.error!.issues[0]!.message, /azure-openai providers only/);
  });
});

describe('readAzureOpenAIError', () => {
  it('names the content filter and the categories it blocked', () => {
    const details = readAzureOpenAIError({
      error: {
        code: 'content_filter',
        param: 'prompt',
        message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        innererror: {
          code: 'ResponsibleAIPolicyViolation',
          content_filter_result: { hate: { filtered: true, severity: 'medium' }, violence: { filtered: false, severity: 'safe' }, jailbreak: { filtered: true, detected: true } },
        },
      },
    });
    assert.equal(details.code, 'content_filter');
    assert.match(details.message!, /^Azure OpenAI's content filter blocked the prompt: hate \(medium\), jailbreak\. The response was filtered/);
  });

  it('reads other errors as OpenAI-shaped', () => {
    assert.deepEqual(readAzureOpenAIError({ error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } }), {
      code: 'DeploymentNotFound',
      message: 'The API deployment for this resource does not exist.',
      type: undefined,
      param: undefined,
    });
  });
});

describe("Azure's stream through the OpenAI conversion", () => {
  it('skips the prompt-filter opener, so the answer keeps its own id, and maps content_filter', async () => {
    const chunks = [
      { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] },
      { id: 'chatcmpl-a', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null, content_filter_results: {} }] },
      { id: 'chatcmpl-a', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: { hate: { filtered: true } } }] },
      { id: 'chatcmpl-a', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
    ];
    const events = [];
    for await (const event of convertStream(asAsync([...chunks.map((chunk) => ({ data: JSON.stringify(chunk) })), { data: '[DONE]' }]), 'az')) events.push(event);
    assert.deepEqual(events, [
      { type: 'start', id: 'chatcmpl-a' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'finish', reason: 'content_filter' },
      { type: 'usage', usage: { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1, reasoningTokens: 0 } },
    ]);
  });
});
