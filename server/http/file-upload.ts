import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { GatewayError } from '../core/gateway-error.js';
import { BatchInputChecker, describeBatchInputProblem } from '../files/check-batch-input.js';
import { newFileId } from '../files/file-id.js';
import type { FileStorage } from '../files/file-storage.js';
import { storedUploadOf, type StoredUpload } from '../files/stored-upload.js';
import { toMultipartError } from './multipart-error.js';

/** What `POST /v1/files` takes besides its one file: a few short text fields. */
const fieldLimits = { fields: 8, fieldSize: 4096, parts: 10 } as const;

export interface FileUploadOptions {
  /** `files.max_bytes`: the largest file; past it the upload is a 413 and nothing is kept. */
  maxBytes: number;
  /** The longest line of batch input (the largest request body the gateway takes). */
  maxLineBytes: number;
}

/**
 * Multipart parsing for `POST /v1/files`: the one `file` part streams straight into the file storage
 * (never held whole), through the batch input check, which reads it line by line as it passes. The
 * check's verdict matters only for `purpose: batch`, which the form may send after the file: when the
 * purpose came first, the first bad line ends the upload at once (400); otherwise the handler refuses it
 * when the file is in. Whatever stored content no handler keeps is removed when the response ends: a
 * refused, oversized or abandoned upload leaves nothing.
 */
/** Uploads refused for a bad line of batch input, by request: the error to answer with. */
const refusals = new WeakMap<Request, GatewayError>();

export function createFileUpload(storage: FileStorage, options: FileUploadOptions): RequestHandler {
  const engine: multer.StorageEngine = {
    _handleFile(req, file, callback) {
      const fileId = newFileId();
      const checker = new BatchInputChecker(options.maxLineBytes);
      const purposeIsBatch = () => (req.body as { purpose?: unknown } | undefined)?.purpose === 'batch';
      async function* checked(): AsyncGenerator<Buffer> {
        for await (const chunk of file.stream as AsyncIterable<Buffer>) {
          checker.push(chunk);
          if (checker.problem && purposeIsBatch()) {
            const refusal = badBatchInput(describeBatchInputProblem(checker.problem));
            refusals.set(req, refusal);
            throw refusal;
          }
          yield chunk;
        }
      }
      storage.write(fileId, checked()).then(
        (size) => {
          const batchProblem = checker.end();
          const upload: StoredUpload = { fileId, size, originalname: file.originalname, ...(batchProblem && { batchProblem }) };
          callback(null, upload);
        },
        (error: unknown) => callback(error as Error),
      );
    },
    _removeFile(_req, file, callback) {
      const upload = storedUploadOf({ file });
      if (!upload) return callback(null);
      storage.remove(upload.fileId).then(() => callback(null), callback);
    },
  };
  const upload = multer({
    storage: engine,
    defParamCharset: 'utf8',
    limits: { fileSize: options.maxBytes, files: 1, ...fieldLimits },
  } as multer.Options).single('file');

  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    res.once('close', () => removeUnkept(req, storage));
    // Stopping the file's stream at a bad line makes it fail too ("aborted"), and multer reports whichever
    // error comes first: the storage's cleanup (a round trip to PostgreSQL) may let the abort win.
    upload(req, res, (error?: unknown) => next(error === undefined ? undefined : (refusals.get(req) ?? toUploadError(error, options))));
  };
}

function removeUnkept(req: Request, storage: FileStorage): void {
  const stored = storedUploadOf(req);
  if (stored && !stored.kept) void storage.remove(stored.fileId).catch(() => {});
}

function badBatchInput(message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param: 'file', code: 'invalid_batch_input' });
}

/** Multer's and busboy's failures in the gateway's terms: sizes are 413, the rest the client's 400. */
function toUploadError(error: unknown, options: FileUploadOptions): GatewayError {
  return toMultipartError(error, ({ code, field: param }) => {
    switch (code) {
      case 'LIMIT_FILE_SIZE':
        return new GatewayError('request_too_large', `The file is over the ${options.maxBytes}-byte limit for uploads (files.max_bytes).`, { param: 'file', code: 'file_too_large' });
      case 'LIMIT_FIELD_VALUE':
        return new GatewayError('request_too_large', `The field '${param}' is over the ${fieldLimits.fieldSize}-byte limit.`, { param, code: 'field_too_large' });
      case 'LIMIT_UNEXPECTED_FILE':
        return new GatewayError('invalid_request', `Unexpected file field '${param}': send one file, as 'file'.`, { param, code: 'invalid_file_field' });
      default:
        return undefined;
    }
  });
}
