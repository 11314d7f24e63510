import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { GatewayError } from '../core/gateway-error.js';
import { toMultipartError } from './multipart-error.js';

/** The file fields of `POST /v1/images/edits`: one `image`, up to 16 `image[]`, one `mask`. */
const fileFields = [
  { name: 'image', maxCount: 1 },
  { name: 'image[]', maxCount: 16 },
  { name: 'mask', maxCount: 1 },
];

/** The numeric limits of an image upload; `fileBytes` comes from `GATEWAY_MAX_UPLOAD_FILE_BYTES`. */
export interface UploadLimits {
  fileBytes: number;
}

export const uploadCountLimits = {
  files: 17,
  fields: 32,
  fieldBytes: 256 * 1024,
  parts: 64,
} as const;

/**
 * Multipart parsing for image edits, before the contract validator sees the text fields. Files stream to
 * a directory of their own per request, under random names (a client's file name never reaches the file
 * system), and the whole directory is removed when the response ends, whether the upload was used,
 * refused half-way or abandoned by the client. Nothing of a request outlives it on disk.
 */
export function createImageUpload(uploadsDirectory: string, limits: UploadLimits): RequestHandler {
  const upload = multer({
    storage: multer.diskStorage({
      destination: (req, _file, callback) => {
        const directory = (req as { uploadDirectory?: string }).uploadDirectory!;
        mkdir(directory, { recursive: true }).then(
          () => callback(null, directory),
          (error: unknown) => callback(error as Error, directory),
        );
      },
      filename: (_req, _file, callback) => callback(null, randomBytes(16).toString('hex')),
    }),
    limits: {
      fileSize: limits.fileBytes,
      files: uploadCountLimits.files,
      fields: uploadCountLimits.fields,
      fieldSize: uploadCountLimits.fieldBytes,
      parts: uploadCountLimits.parts,
    },
  }).fields(fileFields);

  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const directory = join(uploadsDirectory, randomBytes(16).toString('hex'));
    (req as { uploadDirectory?: string }).uploadDirectory = directory;
    res.once('close', () => void rm(directory, { recursive: true, force: true }));
    upload(req, res, (error?: unknown) => next(error === undefined ? undefined : toUploadError(error, limits)));
  };
}

/** Multer's and busboy's failures in the gateway's terms: sizes are 413, everything else the client's 400. */
function toUploadError(error: unknown, limits: UploadLimits): GatewayError {
  return toMultipartError(error, ({ code, field: param }) => {
    switch (code) {
      case 'LIMIT_FILE_SIZE':
        return new GatewayError('request_too_large', `The file in '${param}' is over the ${limits.fileBytes}-byte upload limit.`, { param, code: 'file_too_large' });
      case 'LIMIT_FIELD_VALUE':
        return new GatewayError('request_too_large', `The field '${param}' is over the ${uploadCountLimits.fieldBytes}-byte limit.`, { param, code: 'field_too_large' });
      case 'LIMIT_UNEXPECTED_FILE':
        return new GatewayError('invalid_request', `Unexpected file field '${param}' (or too many files in it): send one 'image', up to 16 'image[]' and one 'mask'.`, { param, code: 'invalid_file_field' });
      default:
        return undefined;
    }
  });
}
