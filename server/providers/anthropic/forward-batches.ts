import type { UpstreamBatchApi, UpstreamBatchResult } from '../upstream-batch-api.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import { readLines } from '../upstream/read-lines.js';
import { withScratchFile } from '../upstream/scratch-file.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { emptyUsageTally, readAnthropicUsage, toGatewayUsage } from './read-usage.js';
import type { AnthropicUsage } from './stream-schemas.js';

/** The status each of Anthropic's error types stands for (https://docs.anthropic.com/en/api/errors). */
const statusOfErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * Anthropic's Message Batches as an upstream (https://docs.anthropic.com/en/api/creating-message-batches,
 * https://docs.anthropic.com/en/api/retrieving-message-batch-results): the requests go inline
 * (`POST /v1/messages/batches`), the batch is polled (`GET /v1/messages/batches/{id}`) and its results read once
 * `processing_status` is `ended`. The results are read from the configured base URL's
 * `/v1/messages/batches/{id}/results` rather than the `results_url` the upstream names, so that the provider's
 * credentials never go to a host the config does not name. A message batch keeps no metadata: there is no `find`.
 */
export function createAnthropicBatches(client: UpstreamClient): UpstreamBatchApi {
  const path = (id: string) => `/v1/messages/batches/${encodeURIComponent(id)}`;
  return {
    protocol: 'anthropic',
    endpoints: ['/v1/messages'],
    async create({ requests }, signal) {
      // The requests go inline, up to 256 MB: the body is written to disk a page at a time and streamed from there.
      async function* body() {
        let separator = '';
        yield '{"requests":[';
        for await (const page of requests.pages()) {
          if (page.length === 0) continue;
          yield `${separator}${page.map((request) => JSON.stringify({ custom_id: request.customId, params: request.body })).join(',')}`;
          separator = ',';
        }
        yield ']}';
      }
      const batch = await withScratchFile(requests.scratchDirectory, body(), signal, (file) => client.exchangeJsonFile('/v1/messages/batches', file, signal));
      return String(batch.id);
    },
    async state(upstreamId, signal) {
      const batch = await client.readJson(await client.get(path(upstreamId), signal), signal);
      const status = String(batch.processing_status);
      return { status, ended: status === 'ended' };
    },
    async *results(upstreamId, signal) {
      const reply = await client.get(`${path(upstreamId)}/results`, signal);
      for await (const line of readLines(client.chunks(reply, signal))) {
        const result = readResultLine(line);
        if (result) yield result;
      }
    },
    async cancel(upstreamId, signal) {
      await client.exchangeJson(`${path(upstreamId)}/cancel`, {}, signal);
    },
  };
}

/** A line of the results: `succeeded` with its message, `errored` with its error, `canceled` or `expired`. */
function readResultLine(text: string): UpstreamBatchResult | undefined {
  const line = asRecord(parseJson(text));
  const result = asRecord(line?.result);
  if (!line || !result || typeof line.custom_id !== 'string') return undefined;
  const customId = line.custom_id;
  if (result.type === 'succeeded') {
    const message = asRecord(result.message) ?? {};
    const tally = emptyUsageTally();
    readAnthropicUsage(tally, asRecord(message.usage) as AnthropicUsage | undefined);
    return { customId, outcome: 'succeeded', statusCode: 200, body: JSON.stringify(message), usage: { ...toGatewayUsage(tally), serviceTier: 'batch' } };
  }
  if (result.type === 'canceled' || result.type === 'expired') return { customId, outcome: result.type, statusCode: null, body: null };
  // `error` is an ErrorResponse (`{type: 'error', error: {type, message}}`); older answers give the inner error alone.
  const outer = asRecord(result.error) ?? {};
  const inner = asRecord(outer.error) ?? outer;
  const type = typeof inner.type === 'string' ? inner.type : 'api_error';
  const message = typeof inner.message === 'string' ? inner.message : 'The upstream batch could not run this request.';
  return { customId, outcome: 'errored', statusCode: statusOfErrorType[type] ?? 500, body: JSON.stringify({ type: 'error', error: { type, message } }) };
}
