// A fake Azure OpenAI resource, written from Azure's public REST reference (see
// test/fixtures/azure-openai/README.md): both URL styles, the api-key header, api-version checks,
// deployments, content filtering (blocked prompts, filtered answers, the stream's prompt-filter preamble),
// embeddings and usage. Its "model" answers deterministically from the request, so tests can check what went through.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeUpstream } from './fake-upstream.js';
import { openAIEmbeddingsAnswer } from './fake-openai-embeddings.js';
import { relayToUpstream } from './relay-to-upstream.js';

type Body = Record<string, any>;

/** A prompt containing this is blocked by the content filter (400 content_filter). */
export const blockedWord = 'FORBIDDEN-TOPIC';
/** An answer to a prompt containing this is cut by the content filter (finish_reason content_filter). */
export const filteredAnswerWord = 'FILTER-THE-ANSWER';
/** API versions of the dated (deployments) API this resource knows. */
export const knownApiVersions = ['2024-10-21', '2025-04-01-preview'];
/** Base64 of a 1×1 PNG, what the image deployment draws. */
export const fakeImageBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export interface AzureRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  json: Body | undefined;
}

/** Replies the test queues for the next calls, ahead of the fake model: an error status with Azure's body. */
export interface QueuedError {
  status: number;
  body: Body;
  headers?: Record<string, string>;
}

export interface FakeAzureOpenAI {
  /** The resource endpoint, as `base_url` takes it. */
  endpoint: string;
  requests: AzureRequest[];
  queueError(error: QueuedError): void;
  close(): Promise<void>;
}

const safe = { filtered: false, severity: 'safe' };
const verdicts = (filtered?: string) => {
  const all: Body = { hate: safe, self_harm: safe, sexual: safe, violence: safe };
  return filtered ? { ...all, [filtered]: { filtered: true, severity: 'high' } } : all;
};
const error = (status: number, code: string | null, message: string, extra: Body = {}) => ({ status, body: { error: { code, message, ...extra } } });

/**
 * Starts the fake on 127.0.0.1. `deployments` maps deployment names to the models behind them; `apiKey`
 * is the only key it takes. With `answerFrom`, chat calls that pass Azure's checks are answered by that
 * scripted upstream (recorded OpenAI traffic: Azure's chat wire format is OpenAI's) instead of the echo model.
 */
export async function startFakeAzureOpenAI(apiKey: string, deployments: Record<string, string>, options: { answerFrom?: FakeUpstream } = {}): Promise<FakeAzureOpenAI> {
  const requests: AzureRequest[] = [];
  const queued: QueuedError[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    let json: Body | undefined;
    try {
      json = req.headers['content-type']?.startsWith('application/json') ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    } catch {
      return send(res, error(400, null, 'We could not parse the JSON body of your request.'));
    }
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, json });
    const refusal = checkCall(req, url, json, apiKey, deployments);
    if (refusal) return send(res, refusal);
    const next = queued.shift();
    if (next) return send(res, next, next.headers);
    const operation = url.pathname.replace(/^\/openai\/(v1|deployments\/[^/]+)/, '');
    if (operation === '/chat/completions' && options.answerFrom) return relayToUpstream(options.answerFrom, req.url ?? '/', Buffer.concat(chunks).toString('utf8'), req, res);
    if (operation === '/chat/completions') return answerChat(res, json!, deployments[deploymentOf(url, json)!]!);
    if (operation === '/images/generations') return send(res, { status: 200, body: drawImages(json!) });
    if (operation === '/embeddings') return send(res, { status: 200, body: openAIEmbeddingsAnswer(json!, deployments[deploymentOf(url, json)!]!) });
    return send(res, error(404, '404', 'Resource not found'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    queueError: (reply) => queued.push(reply),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function deploymentOf(url: URL, json: Body | undefined): string | undefined {
  const match = /^\/openai\/deployments\/([^/]+)\//.exec(url.pathname);
  return match ? decodeURIComponent(match[1]!) : typeof json?.model === 'string' ? json.model : undefined;
}

/** What Azure refuses before any model runs, in the order it checks: route, key, version, deployment, body. */
function checkCall(req: IncomingMessage, url: URL, json: Body | undefined, apiKey: string, deployments: Record<string, string>) {
  const v1 = url.pathname.startsWith('/openai/v1/');
  const dated = /^\/openai\/deployments\/[^/]+\/(chat\/completions|images\/generations|embeddings)$/.test(url.pathname);
  if (req.method !== 'POST' || (!v1 && !dated)) return error(404, '404', 'Resource not found');
  if (req.headers['api-key'] !== apiKey) {
    return error(
      401,
      '401',
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    );
  }
  const apiVersion = url.searchParams.get('api-version');
  // The v1 API takes no dated version (only `preview` for its preview features); the dated API needs one it knows.
  if (v1 && apiVersion !== null && apiVersion !== 'preview') return error(400, 'BadRequest', `API version not supported`);
  if (dated && apiVersion === null) return error(404, '404', 'Resource not found');
  if (dated && !knownApiVersions.includes(apiVersion!)) return error(400, 'BadRequest', 'API version not supported');
  if (!json) return error(400, null, "Unsupported content type: the request body must be application/json");
  const deployment = deploymentOf(url, json);
  if (!deployment || !(deployment in deployments)) {
    return error(
      404,
      'DeploymentNotFound',
      'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
    );
  }
  if (url.pathname.endsWith('/chat/completions')) {
    if (!Array.isArray(json.messages) || json.messages.length === 0) return error(400, null, "'messages' is a required property", { type: 'invalid_request_error', param: 'messages' });
    if (json.messages.some((message: Body) => typeof message?.role !== 'string')) return error(400, null, "'role' is a required property", { type: 'invalid_request_error' });
  } else if (url.pathname.endsWith('/embeddings')) {
    if (json.input === undefined || json.input === '' || (Array.isArray(json.input) && json.input.length === 0)) return error(400, null, "'input' is a required property", { type: 'invalid_request_error', param: 'input' });
    // The content filter's documented scope is prompts and completions; this fake does not filter embeddings.
    return undefined;
  } else if (typeof json.prompt !== 'string' || json.prompt === '') {
    return error(400, 'invalid_request_error', "'prompt' is a required property");
  }
  if (JSON.stringify(json.messages ?? json.prompt).includes(blockedWord)) {
    return error(
      400,
      'content_filter',
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      { param: 'prompt', type: null, status: 400, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: verdicts('violence') } },
    );
  }
  return undefined;
}

function send(res: ServerResponse, reply: { status: number; body: Body }, headers: Record<string, string> = {}): void {
  res.writeHead(reply.status, { 'content-type': 'application/json', 'apim-request-id': 'fake-request', ...headers });
  res.end(JSON.stringify(reply.body));
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: Body) => (part?.type === 'text' ? part.text : '')).join(' ') : '';

/** The fake model: calls the first tool when given tools and no result yet, reports a tool result, else echoes. */
function decide(messages: Body[], tools: Body[] | undefined): { text?: string; toolCall?: { name: string; arguments: string }; filtered: boolean } {
  const last = messages.at(-1)!;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const asked = textOf(lastUser?.content);
  if (last.role === 'tool') return { text: `The tool said ${textOf(last.content)}`, filtered: false };
  if (tools?.length) return { toolCall: { name: tools[0]!.function.name, arguments: JSON.stringify({ question: asked }) }, filtered: false };
  return { text: `You said: ${asked}`, filtered: asked.includes(filteredAnswerWord) };
}

function answerChat(res: ServerResponse, body: Body, model: string): void {
  const { text, toolCall, filtered } = decide(body.messages, body.tools);
  // A filtered answer stops where the filter cut it.
  const shown = filtered ? text!.split(' ').slice(0, 2).join(' ') : text;
  const finishReason = filtered ? 'content_filter' : toolCall ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: words(body.messages.map((message: Body) => textOf(message.content)).join(' ')),
    completion_tokens: words(shown ?? toolCall!.arguments),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const id = `chatcmpl-fake${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const promptFilterResults = [{ prompt_index: 0, content_filter_results: verdicts() }];
  const choiceFilter = filtered ? verdicts('violence') : verdicts();
  const toolCalls = toolCall ? [{ id: 'call_fake1', type: 'function', function: toolCall }] : undefined;
  if (body.stream !== true) {
    const message = { role: 'assistant', content: shown ?? null, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    const choice = { index: 0, finish_reason: finishReason, logprobs: null, message, content_filter_results: choiceFilter };
    return send(res, { status: 200, body: { id, object: 'chat.completion', created, model, choices: [choice], usage, prompt_filter_results: promptFilterResults, system_fingerprint: 'fp_fake' } });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'apim-request-id': 'fake-request' });
  const event = (data: Body) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: Body, finish: string | null = null, filter: Body = verdicts()) =>
    event({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null, content_filter_results: filter }] });
  // Azure's streams open with the prompt filter's verdict and no choices.
  event({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: promptFilterResults });
  chunk({ role: 'assistant', content: '', refusal: null });
  if (shown) for (const [i, word] of shown.split(' ').entries()) chunk({ content: i === 0 ? word : ` ${word}` });
  if (toolCall) {
    chunk({ tool_calls: [{ index: 0, id: 'call_fake1', type: 'function', function: { name: toolCall.name, arguments: '' } }] });
    chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.arguments } }] });
  }
  chunk({}, finishReason, choiceFilter);
  if (body.stream_options?.include_usage === true) event({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

function drawImages(body: Body): Body {
  const n = typeof body.n === 'number' ? body.n : 1;
  return {
    created: Math.floor(Date.now() / 1000),
    data: Array.from({ length: n }, () => ({ b64_json: fakeImageBase64, content_filter_results: verdicts(), prompt_filter_results: verdicts() })),
    usage: { input_tokens: words(body.prompt), output_tokens: 272 * n, total_tokens: words(body.prompt) + 272 * n, input_tokens_details: { text_tokens: words(body.prompt), image_tokens: 0 } },
  };
}
