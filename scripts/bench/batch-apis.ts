/**
 * The batch APIs the batch scenario (f) can drive: how to submit N lines and how to read a batch's progress.
 * Both kinds of batch are run by the same gateway runner (server/batches/); only the client's calls differ.
 * The scenario runs Anthropic's by default (`--batch-apis anthropic,openai` runs both, one after the other).
 */
export interface BatchApi {
  /** What the report calls it, e.g. `POST /v1/messages/batches`. */
  title: string;
  /** Submits a batch of `lines` requests to the bench's chat model; resolves with its ID. */
  submit(origin: string, apiKey: string, lines: number, model: string): Promise<string>;
  /** The batch as the API reports it now. */
  progress(origin: string, apiKey: string, batchId: string): Promise<BatchProgress>;
}

export interface BatchProgress {
  ended: boolean;
  succeeded: number;
  /** Lines that ended any other way (errored, canceled, expired). */
  failed: number;
  processing: number;
  /** The gateway's own clock: the batch's creation and end (Unix ms), the latter once ended. */
  createdAtMs: number;
  endedAtMs: number | null;
}

const prompt = 'Invent a new holiday and describe its traditions.';

/** Anthropic Message Batches (https://docs.anthropic.com/en/api/creating-message-batches). */
const anthropicMessageBatches: BatchApi = {
  title: 'POST /v1/messages/batches (Anthropic)',
  async submit(origin, apiKey, lines, model) {
    const requests = Array.from({ length: lines }, (_, index) => ({
      custom_id: `line-${index}`,
      params: { model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }] },
    }));
    const batch = (await call(origin, anthropicHeaders(apiKey), 'POST', '/v1/messages/batches', { requests })) as { id: string };
    return batch.id;
  },
  async progress(origin, apiKey, batchId) {
    const batch = (await call(origin, anthropicHeaders(apiKey), 'GET', `/v1/messages/batches/${batchId}`)) as {
      processing_status: string;
      request_counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
      created_at: string;
      ended_at: string | null;
    };
    const counts = batch.request_counts;
    return {
      ended: batch.processing_status === 'ended',
      succeeded: counts.succeeded,
      failed: counts.errored + counts.canceled + counts.expired,
      processing: counts.processing,
      createdAtMs: Date.parse(batch.created_at),
      endedAtMs: batch.ended_at === null ? null : Date.parse(batch.ended_at),
    };
  },
};

/** OpenAI Batches (https://platform.openai.com/docs/api-reference/batch): the JSONL uploaded to /v1/files, then a batch of it. */
const openaiBatches: BatchApi = {
  title: 'POST /v1/files + POST /v1/batches (OpenAI)',
  async submit(origin, apiKey, lines, model) {
    const jsonl = Array.from({ length: lines }, (_, index) =>
      JSON.stringify({ custom_id: `line-${index}`, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: prompt }] } }),
    ).join('\n');
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([jsonl], { type: 'application/jsonl' }), 'bench-batch.jsonl');
    const upload = await fetch(`${origin}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
    if (!upload.ok) throw new Error(`POST /v1/files: ${upload.status} ${await upload.text()}`);
    const file = (await upload.json()) as { id: string };
    const batch = (await call(origin, openaiHeaders(apiKey), 'POST', '/v1/batches', { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' })) as { id: string };
    return batch.id;
  },
  async progress(origin, apiKey, batchId) {
    const batch = (await call(origin, openaiHeaders(apiKey), 'GET', `/v1/batches/${batchId}`)) as {
      status: string;
      request_counts: { total: number; completed: number; failed: number };
      created_at: number;
      finalizing_at: number | null;
    };
    const counts = batch.request_counts;
    return {
      ended: ['completed', 'failed', 'expired', 'cancelled'].includes(batch.status),
      succeeded: counts.completed,
      failed: counts.failed,
      processing: counts.total - counts.completed - counts.failed,
      createdAtMs: batch.created_at * 1000,
      // The lines' end (OpenAI's clock is in seconds); `completed_at` adds the writing of the output file.
      endedAtMs: batch.finalizing_at === null ? null : batch.finalizing_at * 1000,
    };
  },
};

export const batchApis = {
  anthropic: anthropicMessageBatches,
  openai: openaiBatches,
} satisfies Record<string, BatchApi>;

export type BatchApiName = keyof typeof batchApis;
export const batchApiNames = Object.keys(batchApis) as BatchApiName[];
/** What scenario (f) runs unless told otherwise: one API is enough to time the runner both share. */
export const defaultBatchApis: BatchApiName[] = ['anthropic'];

const anthropicHeaders = (apiKey: string) => ({ 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' });
const openaiHeaders = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

async function call(origin: string, headers: Record<string, string>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
