import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { toFile } from 'openai';

type Batch = OpenAI.Batches.Batch;

/** The statuses after which an OpenAI batch changes no more. */
const terminal = new Set(['completed', 'failed', 'expired', 'cancelled']);

/** The official SDK on the gateway as `key`, retries off so every call is the test's. */
export const openAIBatchClient = (gateway: { origin: string }, key: string) => new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });

/** One request line of a batch input file. */
export const requestLine = (customId: string, url: string, body: Record<string, unknown>) => JSON.stringify({ custom_id: customId, method: 'POST', url, body });

/** A Chat Completions request line. */
export const chatLine = (customId: string, model = 'builtin/echo', extra: Record<string, unknown> = {}) =>
  requestLine(customId, '/v1/chat/completions', { model, messages: [{ role: 'user', content: `Hello ${customId}` }], ...extra });

/** Uploads the lines as a batch input file (`files.create`, purpose `batch`) and resolves with its ID. */
export async function uploadBatchInput(client: OpenAI, lines: string[], purpose: 'batch' | 'user_data' = 'batch'): Promise<string> {
  const file = await client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'requests.jsonl'), purpose });
  return file.id;
}

/** Polls the batch until it has reached a final status. */
export async function settled(client: OpenAI, id: string, timeoutMs = 20_000): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (terminal.has(batch.status)) return batch;
    assert.ok(Date.now() < deadline, `batch ${id} still ${batch.status} after ${timeoutMs} ms: ${JSON.stringify(batch.request_counts)}`);
    await sleep(50);
  }
}

/** One line of an output or error file, as OpenAI documents it (BatchRequestOutput). */
export interface OutputLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string | null; body: Record<string, any> } | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- any answer
  error: { code: string; message: string } | null;
}

/** The lines of a file (`files.content`), by custom_id; each custom_id at most once. */
export async function fileLines(client: OpenAI, fileId: string | null | undefined): Promise<Map<string, OutputLine>> {
  const lines = new Map<string, OutputLine>();
  if (!fileId) return lines;
  const text = await (await client.files.content(fileId)).text();
  for (const raw of text.split('\n').filter((each) => each !== '')) {
    const line = JSON.parse(raw) as OutputLine;
    assert.ok(!lines.has(line.custom_id), `one line per request: ${line.custom_id} twice`);
    assert.match(line.id, /^batch_req_/);
    lines.set(line.custom_id, line);
  }
  return lines;
}
