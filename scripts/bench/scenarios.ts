/**
 * What the bench sends. Each scenario is measured against three targets: the fake upstream directly, the
 * reference proxy in front of it, and the gateway. Direct and proxy always send the upstream's own request
 * (OpenAI Chat Completions); for the translating scenarios (c, d) that is the upstream's streaming chat, the
 * same upstream work the gateway causes, so their baseline rows are labelled so.
 */
export type ScenarioId = 'a' | 'b' | 'c' | 'd' | 'e';
export type TargetName = 'direct' | 'proxy' | 'gateway';
export const targetNames: readonly TargetName[] = ['direct', 'proxy', 'gateway'];
export const scenarioIds: readonly ScenarioId[] = ['a', 'b', 'c', 'd', 'e'];

/**
 * Scenario (f) measures the gateway alone, so it is not one of the {@link scenarios} above: a batch through
 * the gateway's runner, and scenario (a)'s request beside it (run-batch-scenario.ts).
 */
export const batchScenario = { id: 'f', title: 'Batch through the gateway runner, interactive (a) requests beside it' } as const;
export type BenchScenarioId = ScenarioId | typeof batchScenario.id;
export const benchScenarioIds: readonly BenchScenarioId[] = [...scenarioIds, batchScenario.id];

/** One HTTP request, relative to a target's origin. */
export interface BenchRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Whether a response body is whole (a stream ran to its end); failures count as mismatches. */
  isComplete(body: string): boolean;
}

export interface Scenario {
  id: ScenarioId;
  title: string;
  streams: boolean;
  /** Set when direct and proxy send another request than the gateway's (translation scenarios). */
  baselineNote?: string;
  request(target: TargetName, apiKey: string): BenchRequest;
}

const prompt = 'Invent a new holiday and describe its traditions.';
const json = { 'content-type': 'application/json' };
const bearer = (apiKey: string) => ({ ...json, authorization: `Bearer ${apiKey}` });

const chatStreamEnds = (body: string) => body.endsWith('data: [DONE]\n\n');
const chatCompletionIsWhole = (body: string) => body.includes('"finish_reason":"stop"');

function chatRequest(model: string, stream: boolean, headers: Record<string, string>): BenchRequest {
  const body = stream
    ? { model, messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } }
    : { model, messages: [{ role: 'user', content: prompt }] };
  return { path: '/v1/chat/completions', headers, body: JSON.stringify(body), isComplete: stream ? chatStreamEnds : chatCompletionIsWhole };
}

/** Direct and proxy: the upstream's streaming chat, whatever the gateway is asked. */
const upstreamChatStream = (apiKey: string) => chatRequest('bench-chat', true, bearer(apiKey));

export const scenarios: Record<ScenarioId, Scenario> = {
  a: {
    id: 'a',
    title: 'OpenAI chat, non-stream, pass-through',
    streams: false,
    request: (_target, apiKey) => chatRequest('bench-chat', false, bearer(apiKey)),
  },
  b: {
    id: 'b',
    title: 'OpenAI chat, stream of 100 chunks, pass-through',
    streams: true,
    request: (_target, apiKey) => upstreamChatStream(apiKey),
  },
  c: {
    id: 'c',
    title: 'Anthropic Messages client → OpenAI upstream, stream (translation)',
    streams: true,
    baselineNote: 'direct/proxy: upstream streaming chat',
    request: (target, apiKey) =>
      target !== 'gateway'
        ? upstreamChatStream(apiKey)
        : {
            path: '/v1/messages',
            headers: { ...json, 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
            body: JSON.stringify({ model: 'bench-chat', max_tokens: 1024, messages: [{ role: 'user', content: prompt }], stream: true }),
            isComplete: (body) => body.includes('event: message_stop'),
          },
  },
  d: {
    id: 'd',
    title: 'Responses API client → chat upstream, stream (translation)',
    streams: true,
    baselineNote: 'direct/proxy: upstream streaming chat',
    request: (target, apiKey) =>
      target !== 'gateway'
        ? upstreamChatStream(apiKey)
        : {
            path: '/v1/responses',
            headers: bearer(apiKey),
            body: JSON.stringify({ model: 'bench-chat', input: prompt, stream: true }),
            isComplete: (body) => body.includes('event: response.completed'),
          },
  },
  e: {
    id: 'e',
    title: 'Image generation, b64_json of a ~1 MB PNG',
    streams: false,
    request: (_target, apiKey) => ({
      path: '/v1/images/generations',
      headers: bearer(apiKey),
      body: JSON.stringify({ model: 'bench-image', prompt: 'A lighthouse at dusk', response_format: 'b64_json' }),
      isComplete: (body) => body.length > 1_000_000 && body.includes('"b64_json":"'),
    }),
  },
};
