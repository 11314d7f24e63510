// Azure OpenAI (`type: azure-openai`) through a real gateway, driven by the official SDKs, against a fake
// Azure resource written from Azure's REST reference (helpers/fake-azure-openai.ts): both URL styles,
// pass-through and translation, images, content filtering and Azure's errors.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { blockedWord, fakeImageBase64, filteredAnswerWord, startFakeAzureOpenAI, type FakeAzureOpenAI } from './helpers/fake-azure-openai.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const azureKey = 'azure-key-0123456789abcdef';
const weatherTool = {
  type: 'function' as const,
  function: { name: 'weather', description: 'Weather in a city', parameters: { type: 'object', properties: { question: { type: 'string' } } } },
};

let azure: FakeAzureOpenAI;
let gateway: TestGateway;
let openai: OpenAI;

before(async () => {
  azure = await startFakeAzureOpenAI(azureKey, { 'chat-deployment': 'gpt-4o', 'image-deployment': 'gpt-image-1' });
  const config = configSchema.parse({
    providers: [
      { id: 'azure-dated', type: 'azure-openai', base_url: azure.endpoint, api_key: azureKey, api_version: '2024-10-21' },
      { id: 'azure-v1', type: 'azure-openai', base_url: `${azure.endpoint}/`, api_key: azureKey },
      { id: 'azure-old', type: 'azure-openai', base_url: azure.endpoint, api_key: azureKey, api_version: '2023-01-01' },
    ],
    models: [
      { id: 'dated', provider: 'azure-dated', upstream_model: 'chat-deployment' },
      { id: 'v1', provider: 'azure-v1', upstream_model: 'chat-deployment' },
      { id: 'missing-deployment', provider: 'azure-dated', upstream_model: 'nobody-deployed-this' },
      { id: 'old-version', provider: 'azure-old', upstream_model: 'chat-deployment' },
      { id: 'images', provider: 'azure-dated', upstream_model: 'image-deployment', capabilities: ['image_generation'] },
    ],
    routing: { max_attempts: 1 },
  });
  gateway = await startGateway({ config });
  openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});

after(async () => {
  await gateway?.close();
  await azure?.close();
});

const lastRequest = () => azure.requests.at(-1)!;

describe('openai SDK, passed through', () => {
  test('non-stream chat goes to the deployment with the api-version and the key in api-key', async () => {
    const completion = await openai.chat.completions.create({ model: 'dated', messages: [{ role: 'user', content: 'hello there azure' }] });
    assert.equal(completion.choices[0]!.message.content, 'You said: hello there azure');
    assert.equal(completion.usage?.prompt_tokens, 3);
    // Azure's own fields pass through: the SDK ignores them, a client that knows Azure can read them.
    assert.equal((completion.choices[0] as any).content_filter_results.hate.filtered, false);
    const sent = lastRequest();
    assert.equal(sent.path, '/openai/deployments/chat-deployment/chat/completions');
    assert.equal(sent.query.get('api-version'), '2024-10-21');
    assert.equal(sent.headers['api-key'], azureKey);
    assert.equal(sent.headers.authorization, undefined, 'the key never goes as a bearer token');
  });

  test('a stream opening with the prompt-filter chunk reaches the SDK whole, usage included, without that chunk', async () => {
    const stream = await openai.chat.completions.create({
      model: 'dated',
      messages: [{ role: 'user', content: 'stream me four words' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let preambles = 0;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      if (chunk.choices.length === 0 && !chunk.usage) preambles += 1;
      if (chunk.choices[0]) assert.equal((chunk.choices[0] as any).content_filter_results?.hate?.filtered, false, 'Azure’s per-choice verdicts pass on');
      text += chunk.choices[0]?.delta.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
      usage ??= chunk.usage ?? undefined;
    }
    assert.equal(text, 'You said: stream me four words');
    assert.equal(finish, 'stop');
    // Azure's `choices: []`, `object: ""` opener breaks OpenAI's chunk schema (watch-openai-answers checks every chunk).
    assert.equal(preambles, 0);
    assert.deepEqual({ prompt: usage?.prompt_tokens, completion: usage?.completion_tokens }, { prompt: 4, completion: 6 });
    assert.equal(lastRequest().json?.stream_options?.include_usage, true);
  });

  test('the v1 API (no api_version) takes the model in the body, as OpenAI does', async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({ model: 'v1', messages: [{ role: 'user', content: 'via v1' }], stream: true })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'You said: via v1');
    // The client asked for no usage; the gateway did, and meters Azure's count.
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual({ input: row.input_tokens, output: row.output_tokens, estimated: row.estimated }, { input: 2, output: 4, estimated: false });
    const sent = lastRequest();
    assert.equal(sent.path, '/openai/v1/chat/completions');
    assert.equal(sent.query.get('api-version'), null);
    assert.equal(sent.json?.model, 'chat-deployment');
    assert.equal(sent.headers['api-key'], azureKey);
  });

  test('a tool call round trip', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather in Paris?' }];
    const first = await openai.chat.completions.create({ model: 'dated', messages, tools: [weatherTool] });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
    assert.equal(call.function.name, 'weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { question: 'weather in Paris?' });
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'sunny' });
    const second = await openai.chat.completions.create({ model: 'dated', messages, tools: [weatherTool] });
    assert.equal(second.choices[0]!.message.content, 'The tool said sunny');
    assert.equal(lastRequest().json?.messages.at(-1).tool_call_id, call.id);
  });

  test('images are generated on the image deployment', async () => {
    const result = await openai.images.generate({ model: 'images', prompt: 'a lighthouse at dusk', response_format: 'b64_json' });
    assert.equal(result.data?.[0]?.b64_json, fakeImageBase64);
    const sent = lastRequest();
    assert.equal(sent.path, '/openai/deployments/image-deployment/images/generations');
    assert.equal(sent.query.get('api-version'), '2024-10-21');
    assert.equal(sent.json?.prompt, 'a lighthouse at dusk');
  });
});

describe('@anthropic-ai/sdk, translated', () => {
  let anthropic: Anthropic;
  before(() => {
    anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
  });

  test('messages, non-stream and stream, with usage', async () => {
    const message = await anthropic.messages.create({ model: 'dated', max_tokens: 100, messages: [{ role: 'user', content: 'hi from claude land' }] });
    assert.equal(message.content.length, 1);
    assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : undefined, 'You said: hi from claude land');
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 4);
    const sent = lastRequest();
    assert.equal(sent.path, '/openai/deployments/chat-deployment/chat/completions');
    assert.equal(sent.json?.max_completion_tokens, 100);

    const stream = anthropic.messages.stream({ model: 'v1', max_tokens: 100, messages: [{ role: 'user', content: 'streamed to claude' }] });
    const final = await stream.finalMessage();
    assert.equal(final.content[0]?.type === 'text' ? final.content[0].text : undefined, 'You said: streamed to claude');
    assert.equal(final.usage.output_tokens, 5);
  });
});

describe('content filtering', () => {
  test('a blocked prompt is a 400 naming the content filter, for OpenAI and Anthropic clients alike', async () => {
    const fromOpenAI = await openai.chat.completions
      .create({ model: 'dated', messages: [{ role: 'user', content: `tell me about ${blockedWord}` }] })
      .catch((caught: unknown) => caught);
    assert.ok(fromOpenAI instanceof OpenAI.BadRequestError, String(fromOpenAI));
    assert.equal(fromOpenAI.code, 'content_filter');
    assert.match(fromOpenAI.message, /content filter blocked the prompt: violence \(high\)/);

    const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    const fromAnthropic = await anthropic.messages
      .create({ model: 'v1', max_tokens: 50, messages: [{ role: 'user', content: `tell me about ${blockedWord}` }], stream: true })
      .catch((caught: unknown) => caught);
    assert.ok(fromAnthropic instanceof Anthropic.BadRequestError, String(fromAnthropic));
    assert.equal((fromAnthropic.error as any)?.error?.type, 'invalid_request_error');
    assert.match(fromAnthropic.message, /content filter blocked the prompt/);
  });

  test('an answer cut by the filter finishes as content_filter, refusal and SAFETY in the three protocols', async () => {
    const prompt = `say something ${filteredAnswerWord}`;
    const stream = await openai.chat.completions.create({ model: 'dated', messages: [{ role: 'user', content: prompt }], stream: true });
    let finish: string | null | undefined;
    for await (const chunk of stream) finish ??= chunk.choices[0]?.finish_reason;
    assert.equal(finish, 'content_filter');

    const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'dated', max_tokens: 50, messages: [{ role: 'user', content: prompt }] });
    assert.equal(message.stop_reason, 'refusal');

    const gemini = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin } });
    const answer = await gemini.models.generateContent({ model: 'dated', contents: prompt });
    assert.equal(answer.candidates?.[0]?.finishReason, 'SAFETY');
  });
});

describe("Azure's errors", () => {
  test('an unknown deployment is an upstream failure (502); an api-version Azure refuses is shown as Azure said it', async () => {
    const missing = await openai.chat.completions.create({ model: 'missing-deployment', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    assert.ok(missing instanceof OpenAI.APIError, String(missing));
    assert.equal(missing.status, 502);
    assert.match(missing.message, /deployment for this resource does not exist/);
    // Config validation checks the version's form only; whether this resource knows it only Azure can say.
    const old = await openai.chat.completions.create({ model: 'old-version', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    assert.ok(old instanceof OpenAI.BadRequestError, String(old));
    assert.match(old.message, /API version not supported/);
    assert.equal(lastRequest().query.get('api-version'), '2023-01-01');
  });

  test('the fake is as strict as Azure: api-version required on deployments, api-key only, known routes only', async () => {
    const call = (path: string, headers: Record<string, string>) =>
      fetch(`${azure.endpoint}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'chat-deployment', messages: [{ role: 'user', content: 'x' }] }) });
    assert.equal((await call('/openai/deployments/chat-deployment/chat/completions', { 'api-key': azureKey })).status, 404);
    assert.equal((await call('/openai/v1/chat/completions', { authorization: `Bearer ${azureKey}` })).status, 401);
    assert.equal((await call('/openai/v1/chat/completions', { 'api-key': azureKey })).status, 200);
    assert.equal((await call('/openai/chat/completions?api-version=2024-10-21', { 'api-key': azureKey })).status, 404);
  });

  test('a 429 with retry-after-ms reaches the client as a rate limit with retry-after', async () => {
    azure.queueError({
      status: 429,
      body: { error: { code: '429', message: 'Requests to the ChatCompletions_Create Operation have exceeded the token rate limit. Please retry after 2 seconds.' } },
      headers: { 'retry-after': '7', 'retry-after-ms': '1500' },
    });
    const failure = await openai.chat.completions.create({ model: 'dated', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    assert.ok(failure instanceof OpenAI.RateLimitError, String(failure));
    assert.equal(failure.headers.get('retry-after'), '2');
  });

  test('a refused key is the gateway’s problem (502), and the key is never shown', async () => {
    azure.queueError({ status: 401, body: { error: { code: '401', message: `Access denied for key ${azureKey}` } } });
    const failure = await openai.chat.completions.create({ model: 'dated', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    assert.ok(failure instanceof OpenAI.APIError, String(failure));
    assert.equal(failure.status, 502);
    assert.doesNotMatch(JSON.stringify(failure.error), new RegExp(azureKey));
  });
});
