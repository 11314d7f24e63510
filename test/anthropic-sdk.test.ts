// Anthropic Messages clients (the official SDK, 1.x with Bearer auth and 0.x with x-api-key) against every
// upstream type of the profile table (helpers/upstream-profiles): forwarded to the providers that speak
// Messages (Anthropic, Claude on Vertex), translated for the others and the built-in model. The fakes replay recorded traffic; each test checks what the upstream received in its
// own protocol, and every streamed event is checked against the spec's AnthropicStreamEvent.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import { recordAnthropicStreams } from './helpers/anthropic-stream.js';
import { tinyPng, upstreamModel } from './helpers/upstream-gateway.js';
import { assertReachedUpstream, assertToolResultSent } from './helpers/upstream-profiles/assert-upstream.js';
import { forwards, streamsUpstream, textAnswer, upstreamProfiles, type ProfileSetup, type UpstreamSide } from './helpers/upstream-profiles/index.js';
import type { Received, WireName } from './helpers/upstream-profiles/wire-readers.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Message = Anthropic.Message;

/** What the test needs of either SDK major; their parameter types differ only in fields not used here. */
interface MessagesClient {
  messages: {
    create(params: Body): Promise<Message>;
    stream(params: Body): { finalMessage(): Promise<Message> };
    countTokens(params: Body): Promise<{ input_tokens: number }>;
  };
}

const wire = recordAnthropicStreams();
afterEach(async () => void (await wire.checked()));

/** Headers of every request an SDK sent, to prove which auth each major uses. */
const sentHeaders: Headers[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  sentHeaders.push(new Headers(init?.headers));
  return wire.fetch(input, init);
};

const sdks = [
  {
    name: 'SDK 1.x (Bearer)',
    client: (origin: string, key: string) => new Anthropic({ authToken: key, baseURL: origin, maxRetries: 0, fetch: recordingFetch }) as unknown as MessagesClient,
    errors: Anthropic,
    authenticatedBy: (headers: Headers, key: string) => headers.get('authorization') === `Bearer ${key}` && !headers.has('x-api-key'),
  },
  {
    name: 'SDK 0.x (x-api-key)',
    client: (origin: string, key: string) => new Anthropic0({ apiKey: key, baseURL: origin, maxRetries: 0, fetch: recordingFetch }) as unknown as MessagesClient,
    errors: Anthropic0,
    authenticatedBy: (headers: Headers, key: string) => headers.get('x-api-key') === key && !headers.has('authorization'),
  },
] as const;

const json = (request: Received) => request.json as Body;
const pngData = tinyPng.split(',')[1]!;

/** What a translated request's upstream body holds of the client's `sent`: its model, system prompt and last message. */
function assertTranslated(side: UpstreamSide, request: Received, sent: Body): void {
  assert.equal(side.modelOf(request), upstreamModel);
  assert.equal(side.wire.system(request), sent.system);
  assert.deepEqual(side.wire.history(request).at(-1), ['user', sent.messages.at(-1).content]);
}

/** The count request's body, per wire format: what the client asked to count, in the upstream's terms. */
const countedBody: Partial<Record<WireName, (request: Received) => void>> = {
  'anthropic-messages': (request) =>
    assert.deepEqual(json(request), {
      model: upstreamModel,
      system: [{ type: 'text', text: 'Be brief.' }],
      tools: [calculator],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens is this?' }] }],
    }),
  gemini(request) {
    const { generateContentRequest } = json(request);
    assert.deepEqual(generateContentRequest.contents, [{ role: 'user', parts: [{ text: 'How many tokens is this?' }] }]);
    assert.equal(generateContentRequest.tools[0].functionDeclarations[0].name, 'multiply');
  },
};

const calculator: Anthropic.Tool = {
  name: 'multiply',
  description: 'Multiplies two numbers.',
  input_schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
};

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`Anthropic Messages over a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    before(async () => (setup = await profile.start()));
    after(() => setup.close());

    const upstream = () => setup.upstream!;
    const lastRequest = () => upstream().requests.at(-1)!;
    const forwarded = side !== undefined && forwards(side, 'messages');

    for (const sdk of sdks) {
      describe(sdk.name, () => {
        const client = () => sdk.client(setup.gateway.origin, setup.gateway.apiKey);

        test('messages.create answers with one message and its usage', async () => {
          const sent = { model: setup.model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] };
          const answer = side && textAnswer(side, 'messages', false);
          if (answer) upstream().enqueue(answer.reply);
          const message = await client().messages.create(sent);
          assert.equal(message.type, 'message');
          assert.equal(message.role, 'assistant');
          assert.equal(message.stop_reason, 'end_turn');
          const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          if (!side || !answer) {
            assert.equal(text, 'You said: Hello there');
            assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
            return;
          }
          assert.equal(text, answer.text);
          // A forwarded answer is the upstream's own, model name and usage included.
          if (!forwarded) {
            assert.equal(message.model, 'test-model');
            assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [side.text.usage.input, side.text.usage.output]);
          }
          assert.ok(sdk.authenticatedBy(sentHeaders.at(-1)!, setup.gateway.apiKey), `${sdk.name} authenticated as documented`);
          assertReachedUpstream(side, lastRequest(), streamsUpstream(side, 'messages', false));
          if (forwarded) assert.deepEqual(json(lastRequest()), side.forwardedBody!(sent));
          else assertTranslated(side, lastRequest(), sent);
        });

        test('messages.stream(...).finalMessage() assembles the streamed answer', async () => {
          const sent = { model: setup.model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'Stream to me' }], stream: true };
          if (side) upstream().enqueue(side.text.stream.reply);
          const { stream: _stream, ...params } = sent;
          const message = await client().messages.stream(params).finalMessage();
          const [events] = await wire.checked();
          assert.ok(events!.some((event) => event.type === 'content_block_delta' && event.delta.type === 'text_delta'), 'text came as text_delta events');
          const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          assert.equal(message.stop_reason, 'end_turn');
          if (!side) {
            assert.equal(text, 'You said: Stream to me');
            assert.ok(message.usage.input_tokens > 0, 'message_delta carried the input tokens');
            return;
          }
          assert.equal(text, side.text.stream.text);
          assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [side.text.usage.input, side.text.usage.output]);
          assertReachedUpstream(side, lastRequest(), true);
          if (forwarded) assert.deepEqual(json(lastRequest()), side.forwardedBody!(sent));
          else assertTranslated(side, lastRequest(), sent);
        });

        test('a tool_use round trip reaches the upstream in its own protocol', async () => {
          const question = { role: 'user', content: 'What is 1231 times 2331?' };
          const callAnswer = side?.toolCall.stream;
          if (callAnswer) upstream().enqueue(callAnswer.reply);
          const first = await client().messages.stream({ model: setup.model, max_tokens: 256, tools: [calculator], messages: [question] }).finalMessage();
          assert.equal(first.stop_reason, 'tool_use');
          const call = first.content.find((block) => block.type === 'tool_use');
          assert.ok(call && call.type === 'tool_use', 'a tool_use block came back');
          if (callAnswer) {
            assert.equal(call.name, callAnswer.name);
            assert.deepEqual(call.input, callAnswer.input);
          } else {
            assert.equal(call.name, 'multiply');
            assert.deepEqual(Object.keys(call.input as Body).sort(), ['a', 'b']);
          }

          if (side) upstream().enqueue(textAnswer(side, 'messages', false).reply);
          const second = await client().messages.create({
            model: setup.model,
            max_tokens: 256,
            tools: [calculator],
            messages: [
              question,
              { role: 'assistant', content: first.content },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"product": 2869461}' }] },
            ],
          });
          assert.equal(second.stop_reason, 'end_turn');
          if (!side || !callAnswer) {
            assert.match((second.content[0] as Anthropic.TextBlock).text, /2869461/, 'the built-in model describes the tool result');
            return;
          }
          assertReachedUpstream(side, lastRequest(), streamsUpstream(side, 'messages', false));
          assertToolResultSent(side, lastRequest(), { answer: callAnswer, content: { product: 2869461 }, callId: call.id.split('__ts_')[0]! });
        });

        test('an image block reaches the upstream (or is refused by a model without vision)', async () => {
          const sent = {
            model: setup.model,
            max_tokens: 256,
            messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngData } }] }],
          };
          if (!side) {
            await assert.rejects(client().messages.create(sent), (error: unknown) => {
              assert.ok(error instanceof sdk.errors.BadRequestError, String(error));
              assert.match(error.message, /does not support image input/);
              return true;
            });
            return;
          }
          upstream().enqueue(textAnswer(side, 'messages', false).reply);
          await client().messages.create(sent);
          assertReachedUpstream(side, lastRequest(), streamsUpstream(side, 'messages', false));
          if (forwarded) assert.deepEqual(json(lastRequest()), side.forwardedBody!(sent));
          else assert.deepEqual(side.wire.image(lastRequest()), { mediaType: 'image/png', data: pngData });
        });

        test(`countTokens: ${side?.count ? "the upstream's own count" : 'the gateway’s estimate, no upstream call'}`, async () => {
          const sent = { model: setup.model, system: 'Be brief.', tools: [calculator], messages: [{ role: 'user', content: 'How many tokens is this?' }] };
          const before = setup.upstream?.requests.length ?? 0;
          if (side?.count) upstream().enqueue(side.count.reply(1234));
          const { input_tokens } = await client().messages.countTokens(sent);
          if (!side?.count) {
            assert.ok(Number.isInteger(input_tokens) && input_tokens > 20, `an estimate covering system, tools and message: ${input_tokens}`);
            assert.equal(setup.upstream?.requests.length ?? 0, before, 'no upstream call for an estimate');
            return;
          }
          assert.equal(input_tokens, 1234);
          assert.equal(lastRequest().url, side.count.path);
          assert.ok(side.authenticated(lastRequest()));
          countedBody[side.wire.name]!(lastRequest());
        });

        test('an unknown model is a NotFoundError, a bad key an AuthenticationError', async () => {
          const before = setup.upstream?.requests.length ?? 0;
          const params = { model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
          await assert.rejects(client().messages.create(params), (error: unknown) => {
            assert.ok(error instanceof sdk.errors.NotFoundError, String(error));
            assert.equal((error.error as Body).error.type, 'not_found_error');
            return true;
          });
          const wrong = sdk.client(setup.gateway.origin, 'sk-gw-wrong');
          await assert.rejects(wrong.messages.create({ ...params, model: setup.model }), (error: unknown) => {
            assert.ok(error instanceof sdk.errors.AuthenticationError, String(error));
            assert.equal((error.error as Body).error.type, 'authentication_error');
            return true;
          });
          await assert.rejects(wrong.messages.countTokens({ model: setup.model, messages: params.messages }), sdk.errors.AuthenticationError);
          assert.equal(setup.upstream?.requests.length ?? 0, before, 'nothing reached the upstream');
        });
      });
    }
  });
}
