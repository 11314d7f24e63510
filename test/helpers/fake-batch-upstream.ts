// A fake upstream with the batch APIs of OpenAI and Anthropic, stateful, on 127.0.0.1, for the gateway's
// `batch: upstream` forwarding (issue 37, point 4). What it answers follows the public references:
// - OpenAI Files: https://platform.openai.com/docs/api-reference/files (POST /v1/files multipart, purpose
//   `batch`; GET /v1/files/{id}/content);
// - OpenAI Batch API: https://platform.openai.com/docs/api-reference/batch (POST /v1/batches, GET
//   /v1/batches/{id}, GET /v1/batches, POST /v1/batches/{id}/cancel; the Batch object's statuses
//   validating → in_progress → finalizing → completed, cancelling → cancelled; output and error files of
//   https://platform.openai.com/docs/api-reference/batch/request-output lines);
// - Anthropic Message Batches: https://docs.anthropic.com/en/api/creating-message-batches,
//   https://docs.anthropic.com/en/api/retrieving-message-batches, https://docs.anthropic.com/en/api/canceling-message-batches
//   and https://docs.anthropic.com/en/api/retrieving-message-batch-results (JSONL of `succeeded` / `errored` /
//   `canceled` / `expired` results; `processing_status` in_progress → canceling → ended).
// Requests are answered per line: a chat line gets a chat.completion, an embeddings line a list, a Messages
// line a message; a line whose model is `refuse-me` is answered 400. Batches end after `pollsToEnd` polls
// unless `hold` is set (a test that restarts the gateway or cancels mid-batch).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeBatchUpstream {
  origin: string;
  /** Every request, `METHOD path`, in order. */
  calls: string[];
  /** Batches end only while this is false. */
  hold: boolean;
  /** Polls (GET of the batch) after which a batch ends. */
  pollsToEnd: number;
  /** The credentials each call came with (`authorization`, `x-api-key`). */
  credentials: Set<string>;
  /** Every ID the fake handed out (batches and files): none may reach the gateway's clients. */
  ids: Set<string>;
  close(): Promise<void>;
}

interface OpenAIBatch {
  id: string;
  endpoint: string;
  input_file_id: string;
  metadata: Record<string, string> | null;
  status: string;
  polls: number;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
}

interface MessageBatch {
  id: string;
  requests: Array<{ custom_id: string; params: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any params
  processing_status: string;
  polls: number;
  canceled: boolean;
  created_at: number;
}

export async function startFakeBatchUpstream(): Promise<FakeBatchUpstream> {
  const files = new Map<string, string>();
  const openAIBatches = new Map<string, OpenAIBatch>();
  const messageBatches = new Map<string, MessageBatch>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${(counter += 1)}${Math.random().toString(36).slice(2, 8)}`;
  const state: FakeBatchUpstream = { origin: '', calls: [], hold: false, pollsToEnd: 2, credentials: new Set(), ids: new Set(), close: async () => {} };
  const track = (id: string) => (state.ids.add(id), id);

  const endOpenAI = (batch: OpenAIBatch) => {
    const lines = (files.get(batch.input_file_id) ?? '').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { custom_id: string; body: Record<string, any> }); // eslint-disable-line @typescript-eslint/no-explicit-any -- any body
    const output: string[] = [];
    const errors: string[] = [];
    for (const line of lines) {
      const id = `batch_req_${nextId('')}`;
      if (batch.status === 'cancelling') {
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: { code: 'batch_cancelled', message: 'This request was cancelled.' } }));
      } else if (line.body.model === 'refuse-me') {
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: 400, request_id: 'req_up', body: { error: { message: 'Invalid model', type: 'invalid_request_error', param: 'model', code: null } } }, error: null }));
      } else {
        output.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: 200, request_id: 'req_up', body: answerOpenAI(batch.endpoint, line.body) }, error: null }));
      }
    }
    const file = (content: string[]) => {
      if (content.length === 0) return null;
      const fileId = track(nextId('file-out-'));
      files.set(fileId, `${content.join('\n')}\n`);
      return fileId;
    };
    batch.output_file_id = file(output);
    batch.error_file_id = file(errors);
    batch.status = batch.status === 'cancelling' ? 'cancelled' : 'completed';
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    state.calls.push(`${req.method} ${path}`);
    for (const header of ['authorization', 'x-api-key']) if (typeof req.headers[header] === 'string') state.credentials.add(req.headers[header]);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let match: RegExpMatchArray | null;

    // OpenAI Files.
    if (req.method === 'POST' && path === '/v1/files') {
      const content = multipartFile(raw, String(req.headers['content-type']));
      const id = track(nextId('file-up-'));
      files.set(id, content);
      return json(200, { id, object: 'file', bytes: content.length, created_at: 1, filename: 'batch-input.jsonl', purpose: 'batch', status: 'processed' });
    }
    if (req.method === 'GET' && (match = path.match(/^\/v1\/files\/([^/]+)\/content$/))) {
      const content = files.get(match[1]!);
      if (content === undefined) return json(404, { error: { message: 'No such File object', type: 'invalid_request_error' } });
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(content);
    }
    // OpenAI Batches.
    if (req.method === 'POST' && path === '/v1/batches') {
      const body = JSON.parse(raw.toString('utf8')) as { input_file_id: string; endpoint: string; metadata?: Record<string, string> };
      if (!files.has(body.input_file_id)) return json(400, { error: { message: 'Unknown input file', type: 'invalid_request_error' } });
      const batch: OpenAIBatch = { id: track(nextId('batch_up_')), endpoint: body.endpoint, input_file_id: body.input_file_id, metadata: body.metadata ?? null, status: 'validating', polls: 0, output_file_id: null, error_file_id: null, created_at: Math.floor(Date.now() / 1000) };
      openAIBatches.set(batch.id, batch);
      return json(200, renderOpenAI(batch));
    }
    if (req.method === 'GET' && path === '/v1/batches') {
      const data = [...openAIBatches.values()].reverse().map(renderOpenAI);
      return json(200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false });
    }
    if ((match = path.match(/^\/v1\/batches\/([^/]+)(\/cancel)?$/))) {
      const batch = openAIBatches.get(match[1]!);
      if (!batch) return json(404, { error: { message: 'No such batch', type: 'invalid_request_error' } });
      if (req.method === 'POST' && match[2]) {
        if (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) batch.status = 'cancelling';
        return json(200, renderOpenAI(batch));
      }
      batch.polls += 1;
      if (batch.status === 'validating') batch.status = 'in_progress';
      else if (batch.status === 'cancelling' || (batch.status === 'in_progress' && !state.hold && batch.polls >= state.pollsToEnd)) endOpenAI(batch);
      return json(200, renderOpenAI(batch));
    }
    // Anthropic Message Batches.
    if (req.method === 'POST' && path === '/v1/messages/batches') {
      const body = JSON.parse(raw.toString('utf8')) as { requests: MessageBatch['requests'] };
      const batch: MessageBatch = { id: track(nextId('msgbatch_up_')), requests: body.requests, processing_status: 'in_progress', polls: 0, canceled: false, created_at: Date.now() };
      messageBatches.set(batch.id, batch);
      return json(200, renderMessageBatch(batch, state.origin));
    }
    if ((match = path.match(/^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/))) {
      const batch = messageBatches.get(match[1]!);
      if (!batch) return json(404, { type: 'error', error: { type: 'not_found_error', message: 'No such batch' } });
      if (match[2] === '/cancel') {
        if (batch.processing_status === 'in_progress') (batch.processing_status = 'canceling'), (batch.canceled = true);
        return json(200, renderMessageBatch(batch, state.origin));
      }
      if (match[2] === '/results') {
        if (batch.processing_status !== 'ended') return json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'Batch has not ended' } });
        const lines = batch.requests.map((request) => JSON.stringify({ custom_id: request.custom_id, result: resultOf(batch, request) }));
        return res.writeHead(200, { 'content-type': 'application/binary' }).end(`${lines.join('\n')}\n`);
      }
      batch.polls += 1;
      if (batch.processing_status === 'canceling' || (!state.hold && batch.polls >= state.pollsToEnd)) batch.processing_status = 'ended';
      return json(200, renderMessageBatch(batch, state.origin));
    }
    json(404, { error: { message: `fake batch upstream: no route ${req.method} ${path}` } });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

function renderOpenAI(batch: OpenAIBatch) {
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors: null,
    input_file_id: batch.input_file_id,
    completion_window: '24h',
    status: batch.status,
    output_file_id: batch.output_file_id,
    error_file_id: batch.error_file_id,
    created_at: batch.created_at,
    metadata: batch.metadata,
    request_counts: { total: 0, completed: 0, failed: 0 },
  };
}

function renderMessageBatch(batch: MessageBatch, _origin: string) {
  const ended = batch.processing_status === 'ended';
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.processing_status,
    request_counts: { processing: ended ? 0 : batch.requests.length, succeeded: ended && !batch.canceled ? batch.requests.length : 0, errored: 0, canceled: ended && batch.canceled ? batch.requests.length : 0, expired: 0 },
    ended_at: ended ? new Date().toISOString() : null,
    created_at: new Date(batch.created_at).toISOString(),
    expires_at: new Date(batch.created_at + 86_400_000).toISOString(),
    cancel_initiated_at: batch.canceled ? new Date().toISOString() : null,
    // On another host than the API's, as a storage link may be: the gateway must not send its key there.
    results_url: ended ? `http://results.invalid/v1/messages/batches/${batch.id}/results` : null,
    archived_at: null,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any params
function resultOf(batch: MessageBatch, request: { custom_id: string; params: Record<string, any> }) {
  if (batch.canceled) return { type: 'canceled' };
  if (request.params.model === 'refuse-me') return { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'model: refuse-me is not a model' } } };
  const text = `Batched: ${lastText(request.params.messages)}`;
  return {
    type: 'succeeded',
    message: { id: `msg_up_${request.custom_id}`, type: 'message', role: 'assistant', model: request.params.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 40, service_tier: 'batch' } },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any body
function answerOpenAI(endpoint: string, body: Record<string, any>) {
  if (endpoint === '/v1/embeddings') return { object: 'list', model: body.model, data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 8, total_tokens: 8 } };
  return {
    id: 'chatcmpl-up',
    object: 'chat.completion',
    created: 1,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: `Batched: ${lastText(body.messages)}`, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 40, total_tokens: 140 },
    service_tier: 'default',
  };
}

function lastText(messages: Array<{ content: unknown }> | undefined): string {
  const content = messages?.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The `file` part of a multipart body (the fake needs no more of multipart than that). */
function multipartFile(raw: Buffer, contentType: string): string {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const delimiter = `--${boundary?.[1] ?? boundary?.[2]}`;
  for (const part of raw.toString('utf8').split(delimiter)) {
    if (!/name="file"/.test(part)) continue;
    const start = part.indexOf('\r\n\r\n');
    return part.slice(start + 4).replace(/\r\n$/, '');
  }
  return '';
}
