import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startFakeUpstream, type FakeUpstream } from '../../test/helpers/fake-upstream.js';
import { AccessPolicy } from '../access/access-policy.js';
import { configSchema } from '../config/config-schema.js';
import { messagesCall } from '../protocols/anthropic-messages/messages-call.js';
import type { MessagesCreateRequest, MessagesStreamEvent } from '../protocols/anthropic-messages/wire-types.js';
import { DeploymentHealth } from './deployment-health.js';
import { attachRequestContext } from './request-context.js';
import { callModel } from './model-call.js';
import type { StartedAnswer } from './started-answer.js';
import type { SuccessBody } from '../../generated/operations.js';
import { ModelRegistry } from './model-registry.js';
import { Router } from './router.js';

// The pipeline with a real registry and router: an Anthropic upstream (a fake replaying recordings), which
// it forwards to, and the built-in model, which it translates for.
let upstream: FakeUpstream;
let deps: { registry: ModelRegistry; router: Router };

before(async () => {
  upstream = await startFakeUpstream();
  const config = configSchema.parse({
    providers: [
      { id: 'claude', type: 'anthropic', base_url: upstream.origin, api_key: 'sk-ant-test-key-123456' },
      { id: 'local', type: 'builtin' },
    ],
    models: [
      { id: 'claude-full', provider: 'claude', upstream_model: 'claude-sonnet-4-5', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
      { id: 'claude-plain', provider: 'claude', upstream_model: 'claude-sonnet-4-5', capabilities: ['chat', 'streaming'] },
      { id: 'echo', provider: 'local', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
    ],
  });
  const registry = new ModelRegistry(config);
  deps = { registry, router: new Router(registry, { settings: config.routing, health: new DeploymentHealth(config.routing) }) };
});
after(async () => {
  await deps.registry.close();
  await upstream.close();
});

const body: MessagesCreateRequest = {
  model: 'claude-full',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hi' }],
  tools: [{ type: 'web_search_20250305', name: 'web_search' }, { name: 'lookup', input_schema: { type: 'object' } }],
  thinking: { type: 'enabled', budget_tokens: 2048 },
};

const call = (request: MessagesCreateRequest, anthropicBeta?: string): Promise<StartedAnswer<SuccessBody<'createMessage'>, MessagesStreamEvent>> =>
  callModel(
    deps,
    messagesCall(request, { outputTokenCeiling: undefined, ...(anthropicBeta && { anthropicBeta }) }),
    attachRequestContext(new IncomingMessage(new Socket())),
    AccessPolicy.unrestricted,
    new AbortController().signal,
  );

describe('callModel', () => {
  it("forwards to an upstream of the client's protocol with the client's headers, server tools and all", async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    const answer = await call(body, 'web-search-2025-03-05');
    const request = upstream.requests.at(-1)!;
    assert.deepEqual(request.json, { ...body, model: 'claude-sonnet-4-5' });
    assert.equal(request.headers['anthropic-beta'], 'web-search-2025-03-05');
    assert.equal(answer.kind, 'json');
    assert.deepEqual(answer.droppedParams, []);
    assert.equal(answer.target.deployment.provider.id, 'claude');
  });

  it('removes and names what the model lacks the capability for, before forwarding', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    const answer = await call({ ...body, model: 'claude-plain' });
    assert.deepEqual(answer.droppedParams, ['tools', 'thinking']);
    assert.deepEqual(upstream.requests.at(-1)!.json, { model: 'claude-sonnet-4-5', max_tokens: 100, messages: body.messages });
  });

  it('translates for an upstream of another protocol, refusing what only the client protocol can take', async () => {
    await assert.rejects(call({ ...body, model: 'echo' }), /web_search_20250305/);
    const answer = await call({ ...body, model: 'echo', tools: [{ name: 'lookup', input_schema: { type: 'object' } }], metadata: { user_id: 'u' }, service_tier: 'auto' });
    assert.ok(answer.kind === 'json');
    assert.equal(answer.target.deployment.provider.id, 'local');
    assert.deepEqual(answer.droppedParams, ['service_tier'], 'a field only Anthropic reads is named as left behind');
    assert.equal(((await answer.body()) as { type: string }).type, 'message');
  });

  it('renders a translated stream as the protocol’s named events, with the usage once done', async () => {
    const answer = await call({ model: 'echo', max_tokens: 50, messages: [{ role: 'user', content: 'Hello there' }], stream: true });
    assert.ok(answer.kind === 'stream');
    const events: unknown[] = [];
    for await (const frame of answer.frames) events.push(frame.event);
    assert.equal(events[0], 'message_start');
    assert.equal(events.at(-1), 'message_stop');
    assert.ok((answer.streamed?.usage()?.outputTokens ?? 0) > 0);
  });
});
