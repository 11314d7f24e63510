import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import type { Usage } from '../../core/internal-representation.js';
import type { UpstreamBatchApi, UpstreamBatchResult, UpstreamBatchState } from '../upstream-batch-api.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import { readLines } from '../upstream/read-lines.js';
import { withScratchFile } from '../upstream/scratch-file.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { readChatUsage } from './convert-stream.js';

/** The metadata key carrying the gateway's own ID of the upstream batch, to find it again (`find`). */
const tagKey = 'gateway_upstream_batch';

/** OpenAI's statuses after which a batch changes no more. */
const terminal = new Set(['completed', 'failed', 'expired', 'cancelled']);

/** How many of the newest upstream batches `find` looks through for its tag. */
const findDepth = 300;

/**
 * OpenAI's Batch API as an upstream (https://platform.openai.com/docs/api-reference/batch, and Files:
 * https://platform.openai.com/docs/api-reference/files): the requests are uploaded as a JSONL file
 * (`POST /files`, purpose `batch`), the batch made on it (`POST /batches`) with the gateway's tag in its
 * `metadata`, polled (`GET /batches/{id}`), and its output and error files read (`GET /files/{id}/content`).
 * Chat Completions and embeddings lines are forwarded; Responses API lines run in the gateway (their
 * `previous_response_id` and stored state are the gateway's).
 */
export function createOpenAIBatches(client: UpstreamClient): UpstreamBatchApi {
  const json = async (reply: Promise<Awaited<ReturnType<UpstreamClient['get']>>>, signal: AbortSignal) => client.readJson(await reply, signal);
  return {
    protocol: 'openai',
    endpoints: ['/v1/chat/completions', '/v1/embeddings'],
    async upload(requests, endpoint, signal) {
      // Written to disk a page at a time, then streamed from there as a file-backed Blob (undici reads it as it sends).
      async function* lines() {
        for await (const page of requests.pages()) yield page.map((request) => `${JSON.stringify({ custom_id: request.customId, method: 'POST', url: endpoint, body: request.body })}\n`).join('');
      }
      return withScratchFile(requests.scratchDirectory, lines(), signal, async (path) => {
        const form = new FormData();
        form.append('purpose', 'batch');
        form.append('file', await openAsBlob(path, { type: 'application/jsonl' }), 'batch-input.jsonl');
        const file = await json(client.postAuthorizedForm('/files', form, signal), signal);
        return String(file.id);
      });
    },
    async create({ endpoint, inputFileId, tag }, signal) {
      const batch = await client.exchangeJson('/batches', { input_file_id: inputFileId, endpoint, completion_window: '24h', metadata: { [tagKey]: tag } }, signal);
      return String(batch.id);
    },
    async find(tag, signal) {
      let after: string | undefined;
      for (let seen = 0; seen < findDepth; ) {
        const page = await json(client.get(`/batches?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`, signal), signal);
        const data = Array.isArray(page.data) ? page.data.map((each) => asRecord(each) ?? {}) : [];
        const match = data.find((batch) => asRecord(batch.metadata)?.[tagKey] === tag);
        if (match) return String(match.id);
        seen += data.length;
        if (page.has_more !== true || data.length === 0) return undefined;
        after = String(data.at(-1)!.id);
      }
      return undefined;
    },
    async state(upstreamId, signal): Promise<UpstreamBatchState> {
      const batch = await json(client.get(`/batches/${encodeURIComponent(upstreamId)}`, signal), signal);
      const status = String(batch.status);
      const errors = asRecord(batch.errors)?.data;
      const failure = Array.isArray(errors) ? errors.map((error) => String(asRecord(error)?.message ?? '')).filter(Boolean).join('; ') : undefined;
      return { status, ended: terminal.has(status), ...(status === 'failed' && { failure: failure || 'The upstream refused the batch.' }) };
    },
    async *results(upstreamId, signal) {
      const batch = await json(client.get(`/batches/${encodeURIComponent(upstreamId)}`, signal), signal);
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (typeof fileId !== 'string' || fileId === '') continue;
        const reply = await client.get(`/files/${encodeURIComponent(fileId)}/content`, signal);
        for await (const line of readLines(client.chunks(reply, signal))) {
          const result = readOutputLine(line);
          if (result) yield result;
        }
      }
    },
    async cancel(upstreamId, signal) {
      await client.exchangeJson(`/batches/${encodeURIComponent(upstreamId)}/cancel`, {}, signal);
    },
  };
}

/**
 * A line of an output or error file (https://platform.openai.com/docs/api-reference/batch/request-output):
 * a `response` is an answer, 2xx or not; an `error` alone is a request that never ran (`batch_expired`,
 * `batch_cancelled`) or one the upstream could not run.
 */
function readOutputLine(text: string): UpstreamBatchResult | undefined {
  const line = asRecord(parseJson(text));
  if (!line || typeof line.custom_id !== 'string') return undefined;
  const response = asRecord(line.response);
  const error = asRecord(line.error);
  if (response) {
    const statusCode = typeof response.status_code === 'number' ? response.status_code : 500;
    const body = asRecord(response.body) ?? {};
    const usage = statusCode >= 200 && statusCode < 300 ? usageOf(body) : undefined;
    return { customId: line.custom_id, outcome: statusCode >= 200 && statusCode < 300 ? 'succeeded' : 'errored', statusCode, body: JSON.stringify(body), ...(usage && { usage }) };
  }
  const code = typeof error?.code === 'string' ? error.code : 'upstream_error';
  if (code === 'batch_expired') return { customId: line.custom_id, outcome: 'expired', statusCode: null, body: null };
  if (code === 'batch_cancelled') return { customId: line.custom_id, outcome: 'canceled', statusCode: null, body: null };
  const message = typeof error?.message === 'string' ? error.message : 'The upstream batch could not run this request.';
  return { customId: line.custom_id, outcome: 'errored', statusCode: 500, body: JSON.stringify({ error: { message, type: 'server_error', param: null, code } }) };
}

/** A Chat Completions or embeddings answer's usage, billed at the batch tier. */
function usageOf(body: Record<string, unknown>): Usage | undefined {
  const usage = asRecord(body.usage);
  if (!usage) return undefined;
  if (body.object === 'list') {
    const input = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
    return { inputTokens: input, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, serviceTier: 'batch' };
  }
  return { ...readChatUsage(usage), serviceTier: 'batch' };
}
