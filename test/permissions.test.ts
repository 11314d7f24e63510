// Account and key permissions end to end, through the official SDKs and the admin API: a model, capability
// or parameter value that a key may not use is refused with 403 on every surface, in that protocol's error
// shape, and no alias spelling, model list or fallback gets around it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI, { toFile } from 'openai';
import { createClient, unwrap, type components, type GatewayClient } from '../client/index.js';
import { configSchema } from '../server/config/config-schema.js';
import { makeImage } from './helpers/images.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';

type Permissions = components['schemas']['Permissions'];
type Protocol = 'openai' | 'anthropic' | 'gemini';

const echo = { provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'json_schema'] };
const config = configSchema.parse({
  providers: [
    { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
    // Nothing listens on the discard port: every call to it fails at once.
    { id: 'down', type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' },
  ],
  models: [
    { id: 'team/a', ...echo },
    { id: 'team/b', ...echo },
    // Shares the `team` prefix but not the `team/` segment: `team/*` must not match it.
    { id: 'teamwork/z', ...echo },
    { id: 'other/x', ...echo },
    { id: 'gated', provider: 'down', upstream_model: 'gated', capabilities: echo.capabilities, fallbacks: ['other/x'] },
    ...testConfig.models.filter((model) => model.id !== 'builtin/echo'),
  ],
  routing: { max_attempts: 1 },
});

let gateway: TestGateway;
let admin: GatewayClient;
before(async () => {
  gateway = await startGateway({ config });
  admin = createClient({ baseUrl: gateway.origin, apiKey: gateway.adminKey });
});
after(() => gateway.close());

// ---------- admin API ----------

async function createAccount(permissions: Permissions = {}): Promise<string> {
  const account = unwrap(await admin.POST('/admin/v1/accounts', { body: { name: 'permissions-test', permissions } }));
  return account.id;
}

async function createKey(accountId: string, permissions?: Permissions): Promise<string> {
  const body = { name: 'permissions-test', ...(permissions ? { permissions } : {}) };
  const created = unwrap(await admin.POST('/admin/v1/accounts/{account_id}/keys', { params: { path: { account_id: accountId } }, body }));
  return created.key;
}

async function setDisabled(accountId: string, disabled: boolean): Promise<void> {
  const account = unwrap(await admin.PATCH('/admin/v1/accounts/{account_id}', { params: { path: { account_id: accountId } }, body: { disabled } }));
  assert.equal(account.disabled_at === null, !disabled);
}

/** A key of a new account with these permissions. */
const keyOfAccount = async (permissions: Permissions) => createKey(await createAccount(permissions));

// ---------- per-protocol clients and requests ----------

function sdks(key: string) {
  return {
    openai: new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.origin, maxRetries: 0 }),
    gemini: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.origin } }),
    geminiV1: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.origin, apiVersion: 'v1' } }),
  };
}
type Sdks = ReturnType<typeof sdks>;

const hello = 'Hello gateway';
const weatherParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

async function geminiStreamText(genai: GoogleGenAI, model: string): Promise<string> {
  let text = '';
  for await (const chunk of await genai.models.generateContentStream({ model, contents: hello })) text += chunk.text ?? '';
  return text;
}

/** One way to ask a model for something; resolves to the answer's text or token count. */
interface Surface {
  name: string;
  protocol: Protocol;
  call(sdk: Sdks, model: string): Promise<string | number | null | undefined>;
}

const surfaces: Surface[] = [
  {
    name: 'chat completions',
    protocol: 'openai',
    call: async (sdk, model) => (await sdk.openai.chat.completions.create({ model, messages: [{ role: 'user', content: hello }] })).choices[0]?.message.content,
  },
  {
    name: 'chat completions stream',
    protocol: 'openai',
    call: async (sdk, model) => {
      let text = '';
      const stream = await sdk.openai.chat.completions.create({ model, messages: [{ role: 'user', content: hello }], stream: true });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
  },
  { name: 'responses', protocol: 'openai', call: async (sdk, model) => (await sdk.openai.responses.create({ model, input: hello })).output_text },
  {
    name: 'anthropic messages',
    protocol: 'anthropic',
    call: async (sdk, model) => {
      const message = await sdk.anthropic.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: hello }] });
      return message.content[0]?.type === 'text' ? message.content[0].text : undefined;
    },
  },
  {
    name: 'anthropic count_tokens',
    protocol: 'anthropic',
    call: async (sdk, model) => (await sdk.anthropic.messages.countTokens({ model, messages: [{ role: 'user', content: hello }] })).input_tokens,
  },
  ...(['gemini', 'geminiV1'] as const).flatMap((client): Surface[] => {
    const version = client === 'gemini' ? 'v1beta' : 'v1';
    return [
      { name: `gemini generateContent (${version})`, protocol: 'gemini', call: async (sdk, model) => (await sdk[client].models.generateContent({ model, contents: hello })).text },
      { name: `gemini streamGenerateContent (${version})`, protocol: 'gemini', call: (sdk, model) => geminiStreamText(sdk[client], model) },
      { name: `gemini countTokens (${version})`, protocol: 'gemini', call: async (sdk, model) => (await sdk[client].models.countTokens({ model, contents: hello })).totalTokens },
    ];
  }),
];

interface Refusal {
  status: 403 | 404;
  /** OpenAI's `error.code`. */
  code: string;
  /** OpenAI's `error.param`; the other protocols have no such field, so their message must name it. */
  param: string | null;
  /** What the other protocols' message must name instead, when not the param (the model's ID). */
  mentions?: string;
}

const errorTypes = {
  403: { openai: 'permission_error', anthropic: 'permission_error', gemini: 'PERMISSION_DENIED' },
  404: { openai: 'invalid_request_error', anthropic: 'not_found_error', gemini: 'NOT_FOUND' },
} as const;

/** The call fails as the protocol's SDK sees a refusal, with the body in that protocol's error shape. */
async function assertRefused(protocol: Protocol, call: Promise<unknown>, expected: Refusal): Promise<void> {
  const type = errorTypes[expected.status][protocol];
  const named = expected.mentions ?? expected.param ?? '';
  await assert.rejects(call, (error: unknown) => {
    switch (protocol) {
      case 'openai': {
        assert.ok(error instanceof OpenAI.APIError, String(error));
        assert.equal(error.status, expected.status);
        const body = error.error as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'param', 'type']);
        assert.deepEqual({ type: body.type, code: body.code, param: body.param }, { type, code: expected.code, param: expected.param });
        if (expected.mentions) assert.ok(String(body.message).includes(expected.mentions), String(body.message));
        return true;
      }
      case 'anthropic': {
        assert.ok(error instanceof Anthropic.APIError, String(error));
        assert.equal(error.status, expected.status);
        const body = error.error as { type: string; error: { type: string; message: string } };
        assert.equal(body.type, 'error');
        assert.equal(body.error.type, type);
        assert.ok(body.error.message.includes(named), body.error.message);
        return true;
      }
      case 'gemini': {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.status, expected.status);
        // The SDK's message is the response body as JSON.
        const body = JSON.parse(error.message) as { error: { code: number; status: string; message: string } };
        assert.equal(body.error.code, expected.status);
        assert.equal(body.error.status, type);
        assert.ok(body.error.message.includes(named), body.error.message);
        return true;
      }
    }
  });
}

const modelRefused = (model: string): Refusal => ({ status: 403, code: 'model_not_permitted', param: 'model', mentions: model });
const capabilityRefused = (param: string): Refusal => ({ status: 403, code: 'capability_not_permitted', param });
const valueRefused = (param: string): Refusal => ({ status: 403, code: 'parameter_not_permitted', param });

/** A Gemini request with a raw path, for spellings the SDK would never send. */
const geminiPost = (key: string, path: string) =>
  fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: hello }] }] }),
  });

// ---------- tests ----------

describe('a model allow-list (team/*)', () => {
  let key: string;
  let sdk: Sdks;
  before(async () => {
    key = await keyOfAccount({ models: ['team/*'] });
    sdk = sdks(key);
  });

  for (const surface of surfaces) {
    describe(surface.name, () => {
      test('team/a is answered', async () => {
        assert.ok(await surface.call(sdk, 'team/a'));
      });
      test('other/x is 403 model_not_permitted', () => assertRefused(surface.protocol, surface.call(sdk, 'other/x'), modelRefused('other/x')));
      test('teamwork/z (same prefix, other segment) is 403', () => assertRefused(surface.protocol, surface.call(sdk, 'teamwork/z'), modelRefused('teamwork/z')));
      test('a model that does not exist is 404, even inside the pattern', () =>
        assertRefused(surface.protocol, surface.call(sdk, 'team/nope'), { status: 404, code: 'model_not_found', param: 'model', mentions: 'team/nope' }));
    });
  }

  test('no Gemini path spelling of other/x gets through', async () => {
    const refusedAs = async (path: string) => {
      const response = await geminiPost(key, path);
      const body = (await response.json()) as { error?: { status: string } };
      return `${response.status} ${body.error?.status}`;
    };
    for (const path of [
      '/v1beta/models/other%2Fx:generateContent',
      '/v1beta/models/other%2fx:countTokens',
      '/v1beta/models/other/x:generateContent',
      '/v1/models/other/x:streamGenerateContent?alt=sse',
    ]) {
      assert.equal(await refusedAs(path), '403 PERMISSION_DENIED', path);
    }
    // Resource-name forms (`models/other/x`): refused, as naming no model or a forbidden one.
    for (const path of ['/v1beta/models/models%2Fother%2Fx:generateContent', '/v1beta/models%2Fother%2Fx:generateContent']) {
      assert.match(await refusedAs(path), /^(403 PERMISSION_DENIED|404 NOT_FOUND)$/, path);
    }
    // The same spellings of an allowed model work, so the refusals above are about the model.
    assert.equal((await geminiPost(key, '/v1beta/models/team%2Fa:generateContent')).status, 200);
    assert.equal((await geminiPost(key, '/v1beta/models/team/a:generateContent')).status, 200);
  });

  test('GET of other/x by any path is 403', async () => {
    for (const path of ['/v1/models/other/x', '/v1/models/other%2Fx', '/v1beta/models/other/x', '/v1beta/models/other%2Fx']) {
      const response = await fetch(`${gateway.origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 403, path);
    }
  });

  test('every model list shows team/* only', async () => {
    const openaiIds = [];
    for await (const model of sdk.openai.models.list()) openaiIds.push(model.id);
    assert.deepEqual(openaiIds, ['team/a', 'team/b']);
    assert.deepEqual((await sdk.anthropic.models.list()).data.map((model) => model.id), ['team/a', 'team/b']);
    for (const genai of [sdk.gemini, sdk.geminiV1]) {
      const names = [];
      for await (const model of await genai.models.list()) names.push(model.name);
      assert.deepEqual(names, ['models/team/a', 'models/team/b']);
    }
  });

  test('retrieving other/x is 403 in each shape; team/a is retrieved', async () => {
    assert.equal((await sdk.openai.models.retrieve('team/a')).id, 'team/a');
    await assertRefused('openai', sdk.openai.models.retrieve('other/x'), modelRefused('other/x'));
    await assertRefused('anthropic', sdk.anthropic.models.retrieve('other/x'), modelRefused('other/x'));
    await assertRefused('gemini', sdk.gemini.models.get({ model: 'other/x' }), modelRefused('other/x'));
    await assertRefused('gemini', sdk.geminiV1.models.get({ model: 'other/x' }), modelRefused('other/x'));
  });
});

describe('a key narrows its account and cannot widen it', () => {
  let accountId: string;
  before(async () => (accountId = await createAccount({ models: ['team/*'] })));

  test("a key allowed team/a is refused team/b, which the account's other key may use", async () => {
    const narrow = sdks(await createKey(accountId, { models: ['team/a'] }));
    const plain = sdks(await createKey(accountId));
    const ask = (sdk: Sdks, model: string) => surfaces[0]!.call(sdk, model);
    assert.ok(await ask(narrow, 'team/a'));
    await assertRefused('openai', ask(narrow, 'team/b'), modelRefused('team/b'));
    await assertRefused('anthropic', surfaces[3]!.call(narrow, 'team/b'), modelRefused('team/b'));
    assert.ok(await ask(plain, 'team/b'));
    assert.deepEqual((await narrow.openai.models.list()).data.map((model) => model.id), ['team/a']);
  });

  test('a key allowed other/x under a team/* account still may not use it', async () => {
    const widened = sdks(await createKey(accountId, { models: ['other/x'] }));
    for (const surface of [surfaces[0]!, surfaces[3]!, surfaces[5]!]) {
      await assertRefused(surface.protocol, surface.call(widened, 'other/x'), modelRefused('other/x'));
    }
    assert.deepEqual((await widened.openai.models.list()).data, []);
  });
});

describe('capabilities', () => {
  let sdk: Sdks;
  before(async () => (sdk = sdks(await keyOfAccount({ capabilities: ['json_schema'] }))));

  test('model lists leave out image models the key could do nothing with', async () => {
    const ids: string[] = [];
    for await (const model of sdk.openai.models.list()) ids.push(model.id);
    assert.ok(ids.includes('team/a'), 'chat models stay: chatting is governed by the model list');
    assert.ok(!ids.some((id) => id.startsWith('builtin/image')), `no image model in ${ids.join(', ')}`);
    const painter = sdks(await keyOfAccount({ capabilities: ['image_generation'] }));
    const painterIds: string[] = [];
    for await (const model of painter.openai.models.list()) painterIds.push(model.id);
    assert.ok(painterIds.includes('builtin/image') && !painterIds.includes('builtin/image-edit'));
  });

  test('tools are refused on every protocol, naming the tool', async () => {
    // The narrowed key's body is read field by field, so the refusal names the first tool (its `type` where it has one).
    const tools = { ...capabilityRefused('tools[0].type'), mentions: 'tools[0]' };
    await assertRefused(
      'openai',
      sdk.openai.chat.completions.create({
        model: 'team/a',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParameters } }],
      }),
      tools,
    );
    await assertRefused(
      'openai',
      sdk.openai.responses.create({ model: 'team/a', input: 'Weather in Paris?', tools: [{ type: 'function', name: 'get_weather', parameters: weatherParameters, strict: false }] }),
      tools,
    );
    await assertRefused(
      'anthropic',
      sdk.anthropic.messages.create({
        model: 'team/a',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      }),
      tools,
    );
    await assertRefused(
      'gemini',
      sdk.gemini.models.generateContent({
        model: 'team/a',
        contents: 'Weather in Paris?',
        config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherParameters }] }] },
      }),
      tools,
    );
  });

  test('json_schema, which is allowed, still works', async () => {
    const completion = await sdk.openai.chat.completions.create({
      model: 'team/a',
      messages: [{ role: 'user', content: 'Paris' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: weatherParameters } },
    });
    assert.equal(typeof (JSON.parse(completion.choices[0]!.message.content!) as { city: unknown }).city, 'string');
  });

  test('image generation and image edits are refused', async () => {
    await assertRefused('openai', sdk.openai.images.generate({ model: 'builtin/image', prompt: 'A red sun', size: '256x256' }), capabilityRefused('model'));
    const image = await toFile(await makeImage('png'), 'photo.png', { type: 'image/png' });
    await assertRefused('openai', sdk.openai.images.edit({ model: 'builtin/image-edit', image, prompt: 'invert', size: '256x256' }), capabilityRefused('model'));
  });
});

describe('parameter limits', () => {
  let sdk: Sdks;
  before(async () => (sdk = sdks(await keyOfAccount({ max_output_tokens: 50, image_sizes: ['256x256'], max_images: 1 }))));

  const messages = [{ role: 'user' as const, content: hello }];
  const asks = [
    { protocol: 'openai', param: 'max_tokens', call: (n: number) => sdk.openai.chat.completions.create({ model: 'team/a', messages, max_tokens: n }) },
    {
      protocol: 'openai',
      param: 'max_completion_tokens',
      call: (n: number) => sdk.openai.chat.completions.create({ model: 'team/a', messages, max_completion_tokens: n }),
    },
    { protocol: 'openai', param: 'max_output_tokens', call: (n: number) => sdk.openai.responses.create({ model: 'team/a', input: hello, max_output_tokens: n }) },
    { protocol: 'anthropic', param: 'max_tokens', call: (n: number) => sdk.anthropic.messages.create({ model: 'team/a', messages, max_tokens: n }) },
    {
      protocol: 'gemini',
      param: 'maxOutputTokens',
      call: (n: number) => sdk.gemini.models.generateContent({ model: 'team/a', contents: hello, config: { maxOutputTokens: n } }),
    },
  ] as const;

  for (const ask of asks) {
    test(`${ask.protocol} ${ask.param}: 51 is refused naming it, 50 is fine`, async () => {
      const expected = valueRefused(ask.param);
      // Gemini names the field by its path in the request.
      await assertRefused(ask.protocol, ask.call(51), ask.protocol === 'gemini' ? { ...expected, mentions: 'generationConfig.maxOutputTokens' } : expected);
      await ask.call(50);
    });
  }

  test('image size and count beyond the limits are refused naming size and n', async () => {
    const generate = (params: { size: '256x256' | '512x512'; n: number }) => sdk.openai.images.generate({ model: 'builtin/image', prompt: 'A red sun', ...params });
    await assertRefused('openai', generate({ size: '512x512', n: 1 }), valueRefused('size'));
    await assertRefused('openai', generate({ size: '256x256', n: 2 }), valueRefused('n'));
    assert.equal((await generate({ size: '256x256', n: 1 })).data?.length, 1);
    const image = await toFile(await makeImage('png'), 'photo.png', { type: 'image/png' });
    await assertRefused('openai', sdk.openai.images.edit({ model: 'builtin/image-edit', image, prompt: 'invert', size: '512x512' }), valueRefused('size'));
  });
});

describe('fallbacks are not a side door', () => {
  const askGated = (sdk: Sdks) => sdk.openai.chat.completions.create({ model: 'gated', messages: [{ role: 'user', content: hello }] }).withResponse();

  test('a key allowed only gated gets the failure, not an answer from other/x', async () => {
    const sdk = sdks(await keyOfAccount({ models: ['gated'] }));
    await assert.rejects(askGated(sdk), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError, String(error));
      assert.ok(error.status === 502 || error.status === 503, `status ${error.status}`);
      return true;
    });
    await assert.rejects(sdk.anthropic.messages.create({ model: 'gated', max_tokens: 100, messages: [{ role: 'user', content: hello }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError && (error.status === 502 || error.status === 503), String(error));
      return true;
    });
  });

  test('a key allowed both gets the fallback answer', async () => {
    const sdk = sdks(await keyOfAccount({ models: ['gated', 'other/x'] }));
    const { data, response } = await askGated(sdk);
    assert.equal(response.headers.get('x-gateway-model'), 'other/x');
    assert.ok(data.choices[0]?.message.content);
  });
});

describe('a disabled account', () => {
  test("its keys get 403 until it is enabled again", async () => {
    const accountId = await createAccount();
    const sdk = sdks(await createKey(accountId));
    const [chat, , , messages] = surfaces;
    assert.ok(await chat!.call(sdk, 'team/a'));

    await setDisabled(accountId, true);
    const disabled: Refusal = { status: 403, code: 'account_disabled', param: null, mentions: accountId };
    await assertRefused('openai', chat!.call(sdk, 'team/a'), disabled);
    await assertRefused('anthropic', messages!.call(sdk, 'team/a'), disabled);

    await setDisabled(accountId, false);
    assert.ok(await chat!.call(sdk, 'team/a'));
    assert.ok(await messages!.call(sdk, 'team/a'));
  });
});
