import type { Response } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeWithBackpressure } from '../../streaming/streamed-response.js';
import type { UsageRecord } from '../../usage/usage-record.js';
import type { UsageExportForm } from './usage-export-forms.js';

/**
 * How much longer than a chunk's own work on the event loop an export then leaves the loop to other
 * requests: 3 keeps an export to about a quarter of the loop, so chat requests sent meanwhile barely notice
 * it (bench/README.md, ledger at scale), at the price of a slower download.
 */
const yieldFactor = 3;

/**
 * Streams the records, a chunk (one write) at a time, to the client in `form`, as a file download. The
 * headers (and the CSV header line) go out before the first row is read, so the first byte never waits on
 * the query. Each write that fills the socket's buffer waits for `drain` before the next chunk is asked
 * for, so a slow reader holds the cursor back rather than filling memory; a client that leaves ends the
 * iteration, which closes the cursor.
 */
export async function writeUsageExport(res: Response, chunks: AsyncIterable<UsageRecord[]>, form: UsageExportForm, fileName: string): Promise<void> {
  // attachment() sets a type from the file's extension, which mime does not know for .ndjson: the form's wins.
  res.status(200).attachment(fileName).type(form.mediaType);
  res.flushHeaders();
  if (form.header && !res.destroyed) await writeWithBackpressure(res, form.header);
  try {
    for await (const chunk of chunks) {
      // Checked before each write: a write to a closed response would wait for a `drain` that never comes.
      if (res.destroyed) break;
      const started = performance.now();
      const lines = chunk.map(form.line).join('');
      const busyMs = performance.now() - started;
      await writeWithBackpressure(res, lines);
      await sleep(busyMs * yieldFactor);
    }
  } catch (error) {
    // Headers are out: a cut connection tells the client the file is incomplete, where an end would not.
    res.destroy();
    throw error;
  }
  if (!res.destroyed) res.end();
}
