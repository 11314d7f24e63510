import type { Response } from 'express';
import { writeWithBackpressure } from '../../http/streamed-response.js';
import type { UsageRecord } from '../../usage/usage-record.js';
import type { UsageExportForm } from './usage-export-forms.js';

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
      await writeWithBackpressure(res, chunk.map(form.line).join(''));
    }
  } catch (error) {
    // Headers are out: a cut connection tells the client the file is incomplete, where an end would not.
    res.destroy();
    throw error;
  }
  if (!res.destroyed) res.end();
}
