import { pipeline } from 'node:stream/promises';
import type { OperationHandlers, SuccessBody } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { AccountFiles } from '../../files/account-files.js';
import { describeBatchInputProblem } from '../../files/check-batch-input.js';
import { storedUploadOf } from '../../files/stored-upload.js';
import type { FileRecord } from '../../store/file-store.js';
import { expiryOf } from './file-expiry.js';

type FileOperations = 'createFile' | 'listFiles' | 'retrieveFile' | 'deleteFile' | 'downloadFile';

/** Query values arrive as strings (the validator has checked their form). */
interface FileListQueryText {
  purpose?: string;
  limit?: string;
  order?: 'asc' | 'desc';
  after?: string;
}

/** OpenAI lists up to 10,000 files a page, and that many by default. */
const defaultListLimit = 10_000;

/**
 * OpenAI's Files routes on the gateway's file store (files/account-files.ts). A file belongs to the
 * account whose key uploaded it, as stored responses and conversations do: every key of the account sees
 * it, and every other account is told it does not exist (404, never 403). Files are no model call: no
 * model, so no model permission applies, and nothing is metered or written to the ledger.
 */
export function createFileHandlers(files: AccountFiles): Pick<OperationHandlers, FileOperations> {
  const found = async (accountId: string, fileId: string) => {
    const file = await files.get(accountId, fileId);
    if (!file) throw fileNotFound(fileId);
    return file;
  };
  return {
    createFile: async (req, res, context) => {
      const principal = principalOf(context);
      const upload = storedUploadOf(req);
      if (!upload) throw new GatewayError('invalid_request', "A file is required: send it as the multipart file part 'file'.", { param: 'file', code: 'missing_file' });
      const purpose = req.body.purpose;
      if (purpose === 'batch' && upload.batchProblem) {
        throw new GatewayError('invalid_request', describeBatchInputProblem(upload.batchProblem), { param: 'file', code: 'invalid_batch_input' });
      }
      const createdAtMs = Date.now();
      const expiresAt = expiryOf(req.body.expires_after, purpose, Math.floor(createdAtMs / 1000));
      const record: FileRecord = {
        id: upload.fileId,
        ownerId: principal.account.id,
        createdByKeyId: principal.key.id,
        filename: upload.originalname.slice(0, 1000),
        purpose,
        bytes: upload.size,
        createdAtMs,
        ...(expiresAt !== undefined && { expiresAt }),
      };
      await files.recordUpload(record);
      upload.kept = true;
      res.json(rendered(record));
    },
    listFiles: async (req, res, context) => {
      const query = req.query as FileListQueryText;
      const limit = query.limit === undefined ? defaultListLimit : Number(query.limit);
      const page = await files.list(principalOf(context).account.id, {
        limit,
        order: query.order ?? 'desc',
        ...(query.purpose !== undefined && { purpose: query.purpose }),
        ...(query.after !== undefined && { after: query.after }),
      });
      if (page === 'unknown-cursor') throw new GatewayError('invalid_request', `No file with id '${query.after}' to list after.`, { param: 'after' });
      const data = page.files.map(rendered);
      res.json({ object: 'list', data, first_id: data[0]?.id ?? '', last_id: data.at(-1)?.id ?? '', has_more: page.hasMore });
    },
    retrieveFile: async (req, res, context) => {
      res.json(rendered(await found(principalOf(context).account.id, req.params.file_id)));
    },
    deleteFile: async (req, res, context) => {
      const id = req.params.file_id;
      if (!(await files.delete(principalOf(context).account.id, id))) throw fileNotFound(id);
      res.json({ id, object: 'file', deleted: true });
    },
    downloadFile: async (req, res, context) => {
      const opened = await files.openContent(principalOf(context).account.id, req.params.file_id);
      if (!opened) throw fileNotFound(req.params.file_id);
      res.status(200);
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-length', String(opened.content.bytes));
      res.setHeader('content-disposition', contentDisposition(opened.file.filename));
      res.setHeader('x-content-type-options', 'nosniff');
      // A client that goes away ends the pipeline early; the file descriptor is closed either way.
      await pipeline(opened.content.body, res).catch(() => undefined);
    },
  };
}

function rendered(file: FileRecord): SuccessBody<'retrieveFile'> {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: Math.floor(file.createdAtMs / 1000),
    ...(file.expiresAt !== undefined && { expires_at: file.expiresAt }),
    filename: file.filename,
    purpose: file.purpose as SuccessBody<'retrieveFile'>['purpose'],
    status: 'processed',
  };
}

/** Worded like OpenAI's: another account's, an expired and a deleted file are all simply not found. */
function fileNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No such File object: ${id}`, { param: 'file_id', code: 'not_found' });
}

/** `attachment` with the name, ASCII-safe in `filename` and whole in RFC 5987's `filename*`. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
