import type { FileListQuery, FilePage, FileRecord, FileStore } from '../store/file-store.js';
import { newFileId } from './file-id.js';
import type { FileStorage, StoredContent } from './file-storage.js';
import { readLines } from './split-lines.js';

/** What the gateway writes: the output and error files of a batch (OpenAI's `batch_output`). */
export type GatewayFilePurpose = 'batch_output';

/** A file the gateway writes for an account, as {@link AccountFiles.writeFile} takes it. */
export interface GatewayFileSpec {
  filename: string;
  purpose: GatewayFilePurpose;
  /** Unix seconds; absent: kept until deleted. */
  expiresAt?: number;
}

/** A file's content as lines: its record and the lines in order, numbered from 1. */
export interface FileLines {
  file: FileRecord;
  /** Read as they are consumed (one line in memory at a time); stopping early closes the content. */
  lines: AsyncGenerator<{ number: number; text: string }>;
}

/** How many expired files one sweep removes at most (the next sweep takes the rest). */
const sweepBatch = 500;
/**
 * How long a write to the file storage may receive nothing before what it left is taken for a crash's
 * leftover and removed: far longer than any upload stalls (the HTTP server's own timeouts end it first).
 */
export const abandonedWriteMs = 60 * 60_000;

/**
 * OpenAI Files of every account: metadata in the store, bytes in the file storage. Every call names the
 * account, and a file of another account (or an expired or deleted one) is simply not there. This is the
 * interface the rest of the gateway uses: the Files API's handlers, and batches, which read an input file
 * as lines ({@link openLines}) and write their output and error files ({@link writeFile}).
 */
export class AccountFiles {
  constructor(
    private readonly store: FileStore,
    private readonly storage: FileStorage,
    private readonly options: {
      /** The longest line {@link openLines} reads (the largest request body the gateway takes). */
      maxLineBytes: number;
    },
  ) {}

  /** Where uploads stream their content before {@link recordUpload} makes them a file. */
  get contentStorage(): FileStorage {
    return this.storage;
  }

  /**
   * Makes stored content (written under `record.id` by the upload) a file of `record.ownerId`. When the
   * row cannot be written the content is removed, so nothing is left that no row names.
   */
  async recordUpload(record: FileRecord): Promise<void> {
    try {
      await this.store.insert(record);
    } catch (error) {
      await this.storage.remove(record.id);
      throw error;
    }
  }

  get(accountId: string, fileId: string): Promise<FileRecord | undefined> {
    return this.store.get(fileId, accountId);
  }

  list(accountId: string, query: FileListQuery): Promise<FilePage> {
    return this.store.page(accountId, query);
  }

  /** Deletes the file and its content; false when the account has no such file. */
  async delete(accountId: string, fileId: string): Promise<boolean> {
    // The row first: from then on no reader finds the file; a reader that already opened the content keeps it.
    if (!(await this.store.delete(fileId, accountId))) return false;
    await this.storage.remove(fileId);
    return true;
  }

  /** The file and its content as a byte stream, or undefined when the account has no such file. */
  async openContent(accountId: string, fileId: string): Promise<{ file: FileRecord; content: StoredContent } | undefined> {
    const file = await this.store.get(fileId, accountId);
    const content = file && (await this.storage.open(file.id));
    return file && content && { file, content };
  }

  /**
   * The file's content as numbered lines of text (batch input: `input_file_id` → lines), or undefined when
   * the account has no such file. Lines keep their text as stored, empty ones included; iteration throws
   * on a line longer than the largest request body or not UTF-8 (an uploaded `batch` file has neither).
   */
  async openLines(accountId: string, fileId: string): Promise<FileLines | undefined> {
    const opened = await this.openContent(accountId, fileId);
    if (!opened) return undefined;
    return { file: opened.file, lines: readLines(opened.content.body, this.options.maxLineBytes) };
  }

  /**
   * Writes a new file for the account from lines (each without its line end; `\n` is added), streaming
   * them to storage as they come, never holding the file. Resolves with the file once it is stored whole;
   * if `lines` throws, nothing is kept and the error is thrown on.
   */
  async writeFile(accountId: string, spec: GatewayFileSpec, lines: AsyncIterable<string> | Iterable<string>): Promise<FileRecord> {
    const id = newFileId();
    const bytes = await this.storage.write(id, withLineEnds(lines));
    const record: FileRecord = {
      id,
      ownerId: accountId,
      filename: spec.filename,
      purpose: spec.purpose,
      bytes,
      createdAtMs: Date.now(),
      ...(spec.expiresAt !== undefined && { expiresAt: spec.expiresAt }),
    };
    await this.recordUpload(record);
    return record;
  }

  /**
   * Removes what uploads cut short by a stop left in the file storage (chunks without their file, `.partial`
   * files), once untouched for {@link abandonedWriteMs}; resolves with how many uploads' leftovers went.
   */
  removeLeftovers(now = Date.now()): Promise<number> {
    return this.storage.removeLeftovers(now - abandonedWriteMs);
  }

  /** Removes up to 500 expired files, content first, and resolves with how many went. */
  async deleteExpired(): Promise<number> {
    const ids = await this.store.expired(sweepBatch);
    for (const id of ids) await this.storage.remove(id);
    await this.store.deleteRows(ids);
    return ids.length;
  }
}

async function* withLineEnds(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  for await (const line of lines) {
    if (line.includes('\n')) throw new Error('a line of a gateway-written file holds a line end');
    yield `${line}\n`;
  }
}
