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
// unless `hold` is set (a test that restarts the gateway or cancels mid-batch). An upload or a create's body is
// read as it streams in and never kept: of each request the fake keeps its custom_id, model and the start of its
// last message (what its answers echo), and of each body its size, so a test may forward hundreds of megabytes
// through it and measure what the gateway holds in the same process.
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
  /** The largest input file `POST /v1/files` takes; a larger one is refused with a 400, as OpenAI refuses files over its limit. */
  maxUploadBytes: number;
  /** Each OpenAI input file and each message batch's create body as received: its bytes and its requests. */
  received: Array<{ path: string; bytes: number; requests: number }>;
  close(): Promise<void>;
}

/** What the fake keeps of a request: what its answer names and echoes. */
interface RequestSummary {
  custom_id: string;
  model: unknown;
  /** The start of the last message's text. */
  text: string;
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
  requests: RequestSummary[];
  processing_status: string;
  polls: number;
  canceled: boolean;
  created_at: number;
}

export async function startFakeBatchUpstream(): Promise<FakeBatchUpstream> {
  /** Output and error files, whole (small: the fake's answers); input files as what it keeps of each request. */
  const files = new Map<string, string>();
  const inputFiles = new Map<string, RequestSummary[]>();
  const openAIBatches = new Map<string, OpenAIBatch>();
  const messageBatches = new Map<string, MessageBatch>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${(counter += 1)}${Math.random().toString(36).slice(2, 8)}`;
  const state: FakeBatchUpstream = { origin: '', calls: [], hold: false, pollsToEnd: 2, maxUploadBytes: Infinity, credentials: new Set(), ids: new Set(), received: [], close: async () => {} };
  const track = (id: string) => (state.ids.add(id), id);

  const endOpenAI = (batch: OpenAIBatch) => {
    const lines = inputFiles.get(batch.input_file_id) ?? [];
    const output: string[] = [];
    const errors: string[] = [];
    for (const line of lines) {
      const id = `batch_req_${nextId('')}`;
      if (batch.status === 'cancelling') {
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: { code: 'batch_cancelled', message: 'This request was cancelled.' } }));
      } else if (line.model === 'refuse-me') {
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: 400, request_id: 'req_up', body: { error: { message: 'Invalid model', type: 'invalid_request_error', param: 'model', code: null } } }, error: null }));
      } else {
        output.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: 200, request_id: 'req_up', body: answerOpenAI(batch.endpoint, line) }, error: null }));
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
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    state.calls.push(`${req.method} ${path}`);
    const received = { path, bytes: 0, requests: 0 };
    const counted = (async function* () {
      for await (const chunk of req as AsyncIterable<Buffer>) yield ((received.bytes += chunk.length), chunk);
    })();
    // The large bodies (an input file, a create's requests) are read as they stream; the others are small.
    const raw = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of counted) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    for (const header of ['authorization', 'x-api-key']) if (typeof req.headers[header] === 'string') state.credentials.add(req.headers[header]);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let match: RegExpMatchArray | null;

    // OpenAI Files.
    if (req.method === 'POST' && path === '/v1/files') {
      const requests: RequestSummary[] = [];
      let bytes = 0;
      for await (const line of multipartFileLines(bodyLines(counted), String(req.headers['content-type']))) {
        bytes += Buffer.byteLength(line) + 1;
        const request = JSON.parse(line) as { custom_id: string; body: Record<string, unknown> };
        requests.push(summary(request.custom_id, request.body));
      }
      if (bytes > state.maxUploadBytes) return json(400, { error: { message: `File size exceeds the limit of ${state.maxUploadBytes} bytes.`, type: 'invalid_request_error', param: 'file', code: null } });
      const id = track(nextId('file-up-'));
      inputFiles.set(id, requests);
      state.received.push({ ...received, requests: requests.length });
      return json(200, { id, object: 'file', bytes, created_at: 1, filename: 'batch-input.jsonl', purpose: 'batch', status: 'processed' });
    }
    if (req.method === 'GET' && (match = path.match(/^\/v1\/files\/([^/]+)\/content$/))) {
      const content = files.get(match[1]!);
      if (content === undefined) return json(404, { error: { message: 'No such File object', type: 'invalid_request_error' } });
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(content);
    }
    // OpenAI Batches.
    if (req.method === 'POST' && path === '/v1/batches') {
      const body = JSON.parse((await raw()).toString('utf8')) as { input_file_id: string; endpoint: string; metadata?: Record<string, string> };
      if (!inputFiles.has(body.input_file_id)) return json(400, { error: { message: 'Unknown input file', type: 'invalid_request_error' } });
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
      const requests: RequestSummary[] = [];
      for await (const element of arrayElements(counted)) {
        const request = element as { custom_id: string; params: Record<string, unknown> };
        requests.push(summary(request.custom_id, request.params));
      }
      state.received.push({ ...received, requests: requests.length });
      const batch: MessageBatch = { id: track(nextId('msgbatch_up_')), requests, processing_status: 'in_progress', polls: 0, canceled: false, created_at: Date.now() };
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

function resultOf(batch: MessageBatch, request: RequestSummary) {
  if (batch.canceled) return { type: 'canceled' };
  if (request.model === 'refuse-me') return { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'model: refuse-me is not a model' } } };
  return {
    type: 'succeeded',
    message: { id: `msg_up_${request.custom_id}`, type: 'message', role: 'assistant', model: request.model, content: [{ type: 'text', text: `Batched: ${request.text}` }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 40, service_tier: 'batch' } },
  };
}

function answerOpenAI(endpoint: string, request: RequestSummary) {
  if (endpoint === '/v1/embeddings') return { object: 'list', model: request.model, data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 8, total_tokens: 8 } };
  return {
    id: 'chatcmpl-up',
    object: 'chat.completion',
    created: 1,
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: `Batched: ${request.text}`, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 40, total_tokens: 140 },
    service_tier: 'default',
  };
}

/** What the fake keeps of a request: its custom_id, its model and the first 64 characters of its last message. */
function summary(customId: string, body: Record<string, unknown>): RequestSummary {
  const content = (body.messages as Array<{ content: unknown }> | undefined)?.at(-1)?.content;
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  // Sliced, then copied: a slice of a long string may keep the whole string alive.
  return { custom_id: customId, model: body.model, text: Buffer.from(String(text).slice(0, 64)).toString() };
}

/** A body's lines as they arrive (split on LF; a CR before it kept), never the whole body. */
async function* bodyLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
}

/** The non-empty lines of a multipart body's `file` part (the fake needs no more of multipart than that). */
async function* multipartFileLines(lines: AsyncIterable<string>, contentType: string): AsyncGenerator<string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const delimiter = `--${boundary?.[1] ?? boundary?.[2]}`;
  let inHeaders = false;
  let inFile = false;
  for await (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (line === delimiter || line === `${delimiter}--`) {
      (inHeaders = true), (inFile = false);
    } else if (inHeaders) {
      if (line === '') inHeaders = false;
      else if (/^content-disposition:.*\bname="file"/i.test(line)) inFile = true;
    } else if (inFile && line !== '') {
      yield line;
    }
  }
}

/**
 * The elements of the arrays at a JSON object's top level (`{"requests":[{…},{…}]}`), each parsed as soon as its
 * last byte is in: the body is never held whole. Bytes, not characters, are scanned: in UTF-8 no byte of a
 * multi-byte character is a quote, a backslash or a bracket.
 */
async function* arrayElements(chunks: AsyncIterable<Buffer>): AsyncGenerator<unknown> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = depth >= 3 ? 0 : -1;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
      } else if (byte === 0x22) {
        inString = true;
      } else if (byte === 0x7b || byte === 0x5b) {
        depth += 1;
        if (depth === 3) start = index;
      } else if (byte === 0x7d || byte === 0x5d) {
        depth -= 1;
        if (depth === 2 && start !== -1) {
          element.push(chunk.subarray(start, index + 1));
          yield JSON.parse(Buffer.concat(element).toString('utf8'));
          (element = []), (start = -1);
        }
      }
    }
    if (start !== -1) element.push(chunk.subarray(start));
  }
}
