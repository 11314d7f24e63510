import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NewBatchLine } from '../../batches/batch-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { AccountFiles, FileLines } from '../../files/account-files.js';

/** Why a batch fails at creation (OpenAI's `BatchError`). */
export type BatchInputError = { code: string; line: number | null; message: string; param: string | null };

/** How many failing lines a failed batch names at most (the rest fail alike). */
const maxErrors = 100;
/**
 * Lines handed to `store` at a time: at ~4 KB a line, about 4 MB held, one bounded insert each; between two
 * such pieces the event loop serves other requests.
 */
export const linesPerPiece = 1_000;

/**
 * Opens a batch's input file (the account's, `purpose: batch`) as lines; worded as OpenAI's, another
 * account's file is simply not found.
 */
export async function openBatchInput(files: AccountFiles, accountId: string, fileId: string): Promise<FileLines> {
  const opened = await files.openLines(accountId, fileId);
  if (!opened) throw new GatewayError('not_found', `No such File object: ${fileId}`, { param: 'input_file_id', code: 'not_found' });
  if (opened.file.purpose !== 'batch') {
    await opened.lines.return(undefined);
    throw new GatewayError('invalid_request', `File '${fileId}' has purpose '${opened.file.purpose}'; a batch's input file must be uploaded with purpose 'batch'.`, { param: 'input_file_id', code: 'invalid_file_purpose' });
  }
  return opened;
}

/**
 * Streams a batch's input lines into `store` a piece at a time (never the whole file in memory) and resolves
 * with how many there were, or why the batch fails. The file was checked line by line at upload
 * (files/check-batch-input.ts: JSON, `custom_id`, `method`, `url`, `body`), so what is left to check is what
 * depends on the batch: each line's `url` must be the batch's `endpoint`, as at OpenAI, whose batch then
 * fails with `url_mismatch` naming the line; and no line may ask for a stream. Once a line fails, no more
 * are stored (the caller drops those that were) but the file is read on to name up to 100 failing lines.
 * Throws `too_many_tasks` as soon as the file has more than `maxRequests` requests.
 */
export async function copyBatchInput(
  input: FileLines,
  batch: { fileId: string; endpoint: string; maxRequests: number },
  store: (firstPosition: number, lines: NewBatchLine[]) => Promise<void>,
): Promise<{ lineCount: number; errors: BatchInputError[] }> {
  const errors: BatchInputError[] = [];
  let piece: NewBatchLine[] = [];
  let requests = 0;
  let stored = 0;
  const flush = async () => {
    if (piece.length === 0) return;
    const lines = piece;
    piece = [];
    await store(stored, lines);
    stored += lines.length;
    // A file read from disk or a warm cache may hand over many lines without waiting: let requests in.
    await nextTurn();
  };
  try {
    for await (const { number, text } of input.lines) {
      if (text.trim() === '') continue;
      requests += 1;
      if (requests > batch.maxRequests) {
        throw new GatewayError('invalid_request', `A batch holds at most ${batch.maxRequests} requests; file '${batch.fileId}' has more.`, { param: 'input_file_id', code: 'too_many_tasks' });
      }
      const request = JSON.parse(text) as { custom_id: string; url: string; body: Record<string, unknown> };
      const problem =
        request.url !== batch.endpoint
          ? { code: 'url_mismatch', param: 'url', message: `The URL provided for this request ('${request.url}') does not match the batch endpoint '${batch.endpoint}'.` }
          : request.body.stream === true
            ? { code: 'invalid_request', param: 'body.stream', message: 'A batch answers no stream: leave out `stream` (or set it false).' }
            : undefined;
      if (problem) {
        if (errors.length < maxErrors) errors.push({ ...problem, line: number });
        piece = [];
      } else if (errors.length === 0) {
        piece.push({ customId: request.custom_id, endpoint: batch.endpoint, body: JSON.stringify(request.body) });
        if (piece.length >= linesPerPiece) await flush();
      }
    }
  } finally {
    // Stopped early (too many requests, a store that failed): the content is closed.
    await input.lines.return(undefined);
  }
  if (requests === 0) errors.push({ code: 'empty_file', line: null, param: null, message: `File '${batch.fileId}' holds no requests.` });
  if (errors.length === 0) await flush();
  return { lineCount: errors.length === 0 ? requests : 0, errors };
}
