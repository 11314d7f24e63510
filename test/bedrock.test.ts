// AWS Bedrock (`type: bedrock`) through the gateway, driven by the official SDKs, against a fake Bedrock
// runtime that verifies every SigV4 signature and answers in real event stream frames
// (test/helpers/fake-bedrock.ts). Checks what Bedrock received, what the client got, and the ledger.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { createBedrockSigner } from '../server/providers/bedrock/sign-request.js';
import { startFakeBedrock, textItems, toolUseItems, type BedrockAnswer, type BedrockCall, type FakeBedrock } from './helpers/fake-bedrock.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { tinyPng } from './helpers/upstream-gateway.js';

const region = 'eu-west-3';
const accessKeyId = 'AKIAFAKEBEDROCK00001';
const secretAccessKey = 'fake/secret+key/0123456789abcdefghijklmn';
const sessionToken = 'FwoGZXIvYXdzEFAKE-session-token';
// An inference profile ARN: its colons and slash must be escaped in the path and in the signature.
const modelArn = 'arn:aws:bedrock:eu-west-3:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-20250514-v1:0';

let answer: (call: BedrockCall) => BedrockAnswer;
let bedrock: FakeBedrock;

function gatewayConfig(secret: string, extra: Record<string, unknown> = {}) {
  return configSchema.parse({
    ...extra,
    providers: [
      { id: 'aws', type: 'bedrock', base_url: bedrock.origin, region, aws_access_key_id: accessKeyId, aws_secret_access_key: secret, aws_session_token: sessionToken },
    ],
    models: [{ id: 'claude', provider: 'aws', upstream_model: modelArn }],
    routing: { max_attempts: 1 },
  });
}

before(async () => {
  bedrock = await startFakeBedrock({ region, accessKeyId, secretAccessKey, sessionToken, answer: (call) => answer(call) });
});
after(async () => bedrock.close());
beforeEach(() => {
  bedrock.calls.length = 0;
});

describe('bedrock through the gateway', () => {
  let gateway: TestGateway;
  let openai: OpenAI;
  before(async () => {
    gateway = await startGateway({ config: gatewayConfig(secretAccessKey) });
    openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  });
  after(async () => gateway.close());

  test('chat completion (non-stream): signed call, converted request, text and usage with cache tokens', async () => {
    answer = () => ({ items: textItems('Bonjour, le monde !', { input: 11, output: 6, cacheRead: 4, cacheWrite: 2 }) });
    const { data, response } = await openai.chat.completions
      .create({ model: 'claude', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello in French.' }], max_tokens: 50, temperature: 0.2, stop: ['END'] })
      .withResponse();
    assert.equal(data.choices[0]!.message.content, 'Bonjour, le monde !');
    assert.equal(data.choices[0]!.finish_reason, 'stop');
    assert.equal(data.usage?.prompt_tokens, 17, 'input + cache reads + cache writes');
    assert.equal(data.usage?.prompt_tokens_details?.cached_tokens, 4);
    assert.equal(data.usage?.completion_tokens, 6);

    const [call] = bedrock.calls;
    assert.equal(call?.operation, 'converse-stream');
    assert.equal(call?.modelId, modelArn);
    assert.equal(call?.headers['x-amz-security-token'], sessionToken);
    assert.deepEqual(call?.body.system, [{ text: 'Be brief.' }]);
    assert.deepEqual(call?.body.messages, [{ role: 'user', content: [{ text: 'Say hello in French.' }] }]);
    assert.deepEqual(call?.body.inferenceConfig, { maxTokens: 50, temperature: 0.2, stopSequences: ['END'] });

    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.input_tokens, 17);
    assert.equal(row.cached_input_tokens, 4);
    assert.equal(row.output_tokens, 6);
  });

  test('chat completion stream: text deltas and the usage chunk', async () => {
    answer = () => ({ items: textItems('One, two, three, four.', { input: 9, output: 8 }) });
    const stream = await openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Count to four.' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'One, two, three, four.');
    assert.equal(finish, 'stop');
    assert.equal(usage?.prompt_tokens, 9);
    assert.equal(usage?.completion_tokens, 8);
  });

  test('tool call round trip: toolSpec out, toolUse back, toolResult sent with the same ID', async () => {
    answer = (call) =>
      call.body.messages.length === 1
        ? { items: toolUseItems('tooluse_abc123', 'get_weather', '{"city":"Paris","unit":"c"}', { input: 30, output: 12 }) }
        : { items: textItems('It is 21 °C in Paris.', { input: 50, output: 9 }) };
    const tools: OpenAI.ChatCompletionFunctionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } } } },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = await openai.chat.completions.create({ model: 'claude', messages, tools, tool_choice: 'required', stream: true });
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { id: '', name: '', arguments: '' };
        calls[delta.index]!.id += delta.id ?? '';
        calls[delta.index]!.name += delta.function?.name ?? '';
        calls[delta.index]!.arguments += delta.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.deepEqual(calls, [{ id: 'tooluse_abc123', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' }]);
    assert.equal(finish, 'tool_calls');
    const first = bedrock.calls[0]!.body;
    assert.deepEqual(first.toolConfig, {
      tools: [{ toolSpec: { name: 'get_weather', description: 'Weather by city', inputSchema: { json: tools[0]!.function.parameters } } }],
      toolChoice: { any: {} },
    });

    const second = await openai.chat.completions.create({
      model: 'claude',
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [{ id: calls[0]!.id, type: 'function', function: { name: 'get_weather', arguments: calls[0]!.arguments } }] },
        { role: 'tool', tool_call_id: calls[0]!.id, content: '{"temp": 21}' },
      ],
    });
    assert.equal(second.choices[0]!.message.content, 'It is 21 °C in Paris.');
    const [, assistant, user] = bedrock.calls[1]!.body.messages;
    assert.deepEqual(assistant.content, [{ toolUse: { toolUseId: 'tooluse_abc123', name: 'get_weather', input: { city: 'Paris', unit: 'c' } } }]);
    assert.deepEqual(user.content, [{ toolResult: { toolUseId: 'tooluse_abc123', content: [{ text: '{"temp": 21}' }] } }]);
  });

  test('images go as bytes with their format', async () => {
    answer = () => ({ items: textItems('A transparent pixel.', { input: 20, output: 4 }) });
    const reply = await openai.chat.completions.create({
      model: 'claude',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: tinyPng } }] }],
    });
    assert.equal(reply.choices[0]!.message.content, 'A transparent pixel.');
    const image = bedrock.calls[0]!.body.messages[0].content[1].image;
    assert.equal(image.format, 'png');
    assert.equal(image.source.bytes, tinyPng.split(',')[1]);
  });

  test('anthropic SDK: messages stream', async () => {
    answer = () => ({ items: textItems('Hello from Bedrock.', { input: 7, output: 5 }) });
    const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    const texts: string[] = [];
    const stream = anthropic.messages.stream({ model: 'claude', max_tokens: 100, system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] });
    stream.on('text', (text) => texts.push(text));
    const message = await stream.finalMessage();
    assert.equal(texts.join(''), 'Hello from Bedrock.');
    assert.equal(message.content.length, 1);
    assert.equal(message.content[0]!.type === 'text' && message.content[0]!.text, 'Hello from Bedrock.');
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 7);
    assert.equal(message.usage.output_tokens, 5);
    assert.deepEqual(bedrock.calls[0]!.body.system, [{ text: 'You are terse.' }]);
  });

  test('Bedrock throttling (HTTP and in-stream) is a 429 in the client\'s shape', async () => {
    answer = () => ({ status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' });
    await assert.rejects(openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError, String(error));
      assert.match(error.message, /Too many requests/);
      return true;
    });
    answer = () => ({ items: [{ event: 'messageStart', payload: { role: 'assistant' } }, { exception: 'throttlingException', payload: { message: 'Slow down.' } }] });
    await assert.rejects(openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError, String(error));
      return true;
    });
  });

  test('a request Bedrock refuses (ValidationException) is a 400 with its message', async () => {
    answer = () => ({ status: 400, errorType: 'ValidationException', message: 'The provided model identifier is invalid.' });
    await assert.rejects(openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.match(error.message, /model identifier is invalid/);
      return true;
    });
  });

  test('an event that is not the shape of its type is a 502 naming the provider and the field', async () => {
    answer = () => ({ items: [{ event: 'messageStart', payload: { role: 'assistant' } }, { event: 'contentBlockDelta', payload: { contentBlockIndex: 0 } }] });
    await assert.rejects(openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError && error.status === 502, String(error));
      assert.match(error.message, /'aws' \(bedrock\) sent a malformed contentBlockDelta event: delta: required/);
      return true;
    });
  });
});

describe('bedrock with image URLs', () => {
  let gateway: TestGateway;
  let images: Server;
  before(async () => {
    images = createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(tinyPng.split(',')[1]!, 'base64')));
    images.listen(0, '127.0.0.1');
    await once(images, 'listening');
    gateway = await startGateway({ config: gatewayConfig(secretAccessKey, { outbound: { allow: ['127.0.0.1'] } }) });
  });
  after(async () => {
    await gateway.close();
    images.close();
  });

  test('an image URL is fetched through the outbound guard and sent as bytes', async () => {
    answer = () => ({ items: textItems('A pixel.', { input: 20, output: 3 }) });
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const url = `http://127.0.0.1:${(images.address() as AddressInfo).port}/pixel.png`;
    await openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    assert.deepEqual(bedrock.calls[0]!.body.messages[0].content, [{ image: { format: 'png', source: { bytes: tinyPng.split(',')[1] } } }]);
  });
});

describe('bedrock with a wrong secret', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startGateway({ config: gatewayConfig('wrong/secret+key/0123456789abcdefghijklmn') });
  });
  after(async () => gateway.close());

  test('the fake refuses the signature and clients get a clean upstream auth error, no secret', async () => {
    answer = () => assert.fail('an unsigned call must not be answered');
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await assert.rejects(openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError, String(error));
      assert.equal(error.status, 502);
      assert.equal(error.code, 'upstream_authentication_failed');
      assert.ok(!JSON.stringify(error.error).includes('wrong/secret'), 'the secret is never echoed');
      return true;
    });
    const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    await assert.rejects(anthropic.messages.create({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.equal(error.status, 502);
      assert.equal((error.error as { type?: string }).type, 'error');
      return true;
    });
    assert.equal(bedrock.calls.length, 0);
  });
});

describe('the fake Bedrock is as strict as AWS', () => {
  const path = `/model/${encodeURIComponent(modelArn)}/converse-stream`;
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
  async function send(signed: { region?: string; secret?: string; headers?: Record<string, string>; sendBody?: string }) {
    const sign = createBedrockSigner({
      region: signed.region ?? region,
      credentials: { accessKeyId, secretAccessKey: signed.secret ?? secretAccessKey, sessionToken },
    });
    const headers = await sign(new URL(`${bedrock.origin}${path}`), body, { 'content-type': 'application/json', ...signed.headers });
    const response = await fetch(`${bedrock.origin}${path}`, { method: 'POST', headers, body: signed.sendBody ?? body });
    const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
    return { status: response.status, type: response.headers.get('x-amzn-errortype')?.split(':')[0], body: response.ok ? { message: '' } : (JSON.parse(text) as { message: string }) };
  }

  test('refuses a wrong secret, a wrong region, a stale date and a body other than the one signed', async () => {
    answer = () => ({ items: textItems('ok', { input: 1, output: 1 }) });
    assert.equal((await send({})).status, 200, 'a correct signature passes');
    const wrongSecret = await send({ secret: 'not-the-secret-at-all' });
    assert.deepEqual([wrongSecret.status, wrongSecret.type], [403, 'InvalidSignatureException']);
    assert.match(wrongSecret.body.message, /signature we calculated does not match/);
    assert.deepEqual((await send({ region: 'us-east-1' })).type, 'InvalidSignatureException');
    assert.deepEqual((await send({ sendBody: body.replace('Hi', 'Ho') })).type, 'InvalidSignatureException');
    // Signed correctly, but ten minutes ago: AWS allows five.
    const signer = new SignatureV4({ service: 'bedrock', region, credentials: { accessKeyId, secretAccessKey, sessionToken }, sha256: Sha256 });
    const url = new URL(`${bedrock.origin}${path}`);
    const old = await signer.sign(
      new HttpRequest({ method: 'POST', hostname: url.hostname, port: Number(url.port), path, headers: { host: url.host, 'content-type': 'application/json' }, body }),
      { signingDate: new Date(Date.now() - 10 * 60_000) },
    );
    const { host: _host, ...staleHeaders } = old.headers;
    const stale = await fetch(url, { method: 'POST', headers: staleHeaders, body });
    assert.equal(stale.status, 403);
    assert.match(((await stale.json()) as { message: string }).message, /Signature expired/);
    assert.equal(bedrock.calls.length, 1, 'only the correctly signed call was answered');
  });
});
