// The official `openai` SDK, given only a base URL, a key and the built-in model ID, against a real gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const model = 'builtin/echo';
let gateway: TestGateway;
let client: OpenAI;

before(async () => {
  gateway = await startGateway();
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});
after(() => gateway.close());

const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('models', () => {
  test('lists the built-in model with its capabilities', async () => {
    const page = await client.models.list();
    const echo = page.data.find((entry) => entry.id === model);
    assert.ok(echo, 'builtin/echo is listed');
    assert.equal(echo.object, 'model');
    assert.equal(echo.owned_by, 'builtin');
    assert.ok((echo as unknown as { capabilities: string[] }).capabilities.includes('tools'));
  });

  test('retrieves a model whose ID contains a slash', async () => {
    const retrieved = await client.models.retrieve(model);
    assert.equal(retrieved.id, model);
  });

  test('retrieves a model by a literal slash path too', async () => {
    const response = await fetch(`${gateway.origin}/v1/models/builtin/echo`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { id: string }).id, model);
  });
});

describe('chat completions', () => {
  test('completes a chat with honest usage and a request ID', async () => {
    const completion = await client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello gateway' },
      ],
    });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, model);
    assert.equal(completion.choices[0].message.content, 'You said: Hello gateway');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.ok(completion.usage && completion.usage.prompt_tokens > 0 && completion.usage.completion_tokens > 0);
    assert.equal(completion.usage.total_tokens, completion.usage.prompt_tokens + completion.usage.completion_tokens);
    assert.match(completion._request_id ?? '', /^req_/);
  });

  test('streams through .stream().finalChatCompletion() with usage', async () => {
    const stream = client.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'Stream these words one by one please' }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content.delta', ({ delta }) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    assert.equal(final.choices[0].message.content, 'You said: Stream these words one by one please');
    assert.ok(deltas.length > 5, `streamed word by word (${deltas.length} deltas)`);
    assert.equal(deltas.join(''), final.choices[0].message.content);
    assert.ok(final.usage && final.usage.completion_tokens > 0);
  });

  test('round-trips a tool call, streamed and not', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({ model, messages, tools: [weatherTool] });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.equal(first.choices[0].finish_reason, 'tool_calls');
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(Object.keys(JSON.parse(call.function.arguments)), ['city']);

    const streamed = await client.chat.completions.stream({ model, messages, tools: [weatherTool] }).finalChatCompletion();
    const streamedCall = streamed.choices[0].message.tool_calls?.[0];
    assert.ok(streamedCall && streamedCall.type === 'function');
    assert.equal(streamedCall.function.arguments, call.function.arguments);

    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temperature_c":21}' });
    const second = await client.chat.completions.create({ model, messages, tools: [weatherTool] });
    assert.equal(second.choices[0].finish_reason, 'stop');
    assert.match(second.choices[0].message.content ?? '', /get_weather.*21/);
  });

  test('honours max_tokens, stop and json_schema', async () => {
    const long = 'one two three four five six seven eight nine ten';
    const cut = await client.chat.completions.create({ model, max_tokens: 3, messages: [{ role: 'user', content: long }] });
    assert.equal(cut.choices[0].finish_reason, 'length');
    assert.equal(cut.usage?.completion_tokens, 3);

    const stopped = await client.chat.completions.create({ model, stop: ['four'], messages: [{ role: 'user', content: long }] });
    assert.equal(stopped.choices[0].message.content, 'You said: one two three ');
    assert.equal(stopped.choices[0].finish_reason, 'stop');

    const structured = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Alice is 30' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'person', schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] } },
      },
    });
    const person = JSON.parse(structured.choices[0].message.content ?? '');
    assert.equal(typeof person.name, 'string');
    assert.equal(person.age, 30);
  });
});

describe('errors', () => {
  test('missing key → AuthenticationError', async () => {
    const anonymous = new OpenAI({ apiKey: 'unused', baseURL: `${gateway.origin}/v1`, maxRetries: 0, defaultHeaders: { authorization: null } });
    await assert.rejects(anonymous.models.list(), OpenAI.AuthenticationError);
  });

  test('wrong key → AuthenticationError', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-gw-wrong', baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await assert.rejects(wrong.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }), OpenAI.AuthenticationError);
  });

  test('unknown model → NotFoundError with model_not_found', async () => {
    const error = await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }).catch((caught) => caught);
    assert.ok(error instanceof OpenAI.NotFoundError);
    assert.equal(error.code, 'model_not_found');
    assert.equal(error.param, 'model');
  });

  test('unknown model while streaming → NotFoundError before any chunk', async () => {
    const stream = client.chat.completions.stream({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] });
    await assert.rejects(stream.finalChatCompletion(), OpenAI.NotFoundError);
  });

  test('no messages → BadRequestError naming the field', async () => {
    const body = { model } as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const error = await client.chat.completions.create(body).catch((caught) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'messages');
    assert.match(error.message, /messages/);
  });

  test('a tool_choice naming a tool that was not offered → BadRequestError', async () => {
    const error = await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hi' }], tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'nope' } } })
      .catch((caught) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'tool_choice');
  });
});
