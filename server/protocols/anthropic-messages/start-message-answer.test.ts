import assert from 'node:assert/strict';
import { defaultModelImages } from '../../config/config-schema.js';
import { describe, it } from 'node:test';
import type { ModelCapability } from '../../config/config-schema.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import type { RouteTarget } from '../../core/router.js';
import type { ModelRequest, StreamEvent } from '../../core/types.js';
import type { ForwardedMessages, MessagesCallContext, Provider } from '../../providers/provider.js';
import { convertMessagesRequest, type ConversionMode } from './convert-messages-request.js';
import { startMessageAnswer, type MessageAttemptInput } from './start-message-answer.js';
import type { MessagesCreateRequest } from './wire-types.js';

const usage = { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1, reasoningTokens: 0 };
const answer: StreamEvent[] = [
  { type: 'start' },
  { type: 'text_delta', text: 'Hi' },
  { type: 'finish', reason: 'stop' },
  { type: 'usage', usage },
];

/** A provider that records what it was given: a Messages pass-through when `forwards`, else only `stream`. */
function fakeProvider(forwards: boolean) {
  const seen: { forwarded?: { body: Record<string, unknown>; context: MessagesCallContext }; streamed?: ModelRequest } = {};
  const provider: Provider = {
    type: forwards ? 'anthropic' : 'openai',
    id: 'fake',
    async *stream(request) {
      seen.streamed = request;
      yield* answer;
    },
    ...(forwards && {
      messagesPassThrough: {
        async forward(body, context): Promise<ForwardedMessages> {
          seen.forwarded = { body, context };
          return { kind: 'json', body: { type: 'message' } };
        },
      },
    }),
  };
  return { provider, seen };
}

function targetFor(provider: Provider, capabilities: ModelCapability[] = ['chat', 'streaming', 'tools', 'reasoning']): RouteTarget {
  const deployment = { key: 'fake/up', provider, upstreamModel: 'up', weight: 1 };
  const model: RegisteredModel = { id: 'gw', capabilities, onUnsupported: 'drop', created: 0, ownedBy: provider.type, deployments: [deployment], fallbacks: [], images: defaultModelImages };
  return { model, deployment };
}

function inputFor(body: MessagesCreateRequest, extra: Partial<MessageAttemptInput> = {}): MessageAttemptInput & { modes: ConversionMode[] } {
  const modes: ConversionMode[] = [];
  return {
    body,
    modes,
    request: (mode) => {
      modes.push(mode);
      return convertMessagesRequest(body, mode);
    },
    signal: new AbortController().signal,
    ...extra,
  };
}

const body: MessagesCreateRequest = {
  model: 'gw',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hi' }],
  tools: [{ type: 'web_search_20250305', name: 'web_search' }, { name: 'lookup', input_schema: { type: 'object' } }],
  thinking: { type: 'enabled', budget_tokens: 2048 },
};

describe('startMessageAnswer', () => {
  it("forwards to a Messages upstream with the client's anthropic-beta, inspecting rather than translating", async () => {
    const { provider, seen } = fakeProvider(true);
    const input = inputFor(body, { anthropicBeta: 'web-search-2025-03-05' });
    const started = await startMessageAnswer(targetFor(provider), input);
    assert.equal(started.kind, 'forwarded');
    assert.deepEqual(seen.forwarded?.body, body, 'server tools and all');
    assert.equal(seen.forwarded?.context.anthropicBeta, 'web-search-2025-03-05');
    assert.equal(seen.forwarded?.context.upstreamModel, 'up');
    assert.deepEqual(input.modes, ['inspect']);
  });

  it('removes and names what the model lacks the capability for, before forwarding', async () => {
    const { provider, seen } = fakeProvider(true);
    const started = await startMessageAnswer(targetFor(provider, ['chat', 'streaming']), inputFor(body));
    assert.deepEqual(started.droppedParams, ['tools', 'thinking']);
    assert.deepEqual(seen.forwarded?.body, { model: 'gw', max_tokens: 100, messages: body.messages });
  });

  it('translates for other upstreams, refusing what only Anthropic can take', async () => {
    const { provider } = fakeProvider(false);
    await assert.rejects(startMessageAnswer(targetFor(provider), inputFor(body)), /web_search_20250305/);

    const { provider: plain, seen } = fakeProvider(false);
    const clientTools = { ...body, tools: [{ name: 'lookup', input_schema: { type: 'object' } }] };
    const input = inputFor(clientTools);
    const started = await startMessageAnswer(targetFor(plain), input);
    assert.equal(started.kind, 'translated');
    assert.deepEqual(input.modes, ['translate']);
    assert.equal(seen.streamed?.model, 'gw');
    assert.deepEqual(seen.streamed?.reasoning, { budgetTokens: 2048 });
    assert.ok(started.kind === 'translated' && started.translated.kind === 'collected');
  });
});
