import multer from 'multer';
import { GatewayError } from '../core/gateway-error.js';

/**
 * What went wrong reading a multipart upload, as the client's error: a multer limit is described by the
 * upload's own words (`describeLimit`, which knows its fields and limits); a GatewayError raised while storing
 * stays as it is; a failing disk is ours (500); anything else is a body that could not be read.
 */
export function toMultipartError(error: unknown, describeLimit: (error: multer.MulterError) => GatewayError | undefined): GatewayError {
  if (error instanceof multer.MulterError) {
    return describeLimit(error) ?? new GatewayError('invalid_request', `The multipart body is over a limit: ${error.message}.`, { param: error.field, code: 'too_many_parts' });
  }
  if (error instanceof GatewayError) return error;
  // The disk failed us (full, unwritable): our fault, a 500, not the client's.
  if (error instanceof Error && 'syscall' in error) return new GatewayError('internal', 'The upload could not be stored.', { cause: error });
  const detail = error instanceof Error ? error.message : String(error);
  return new GatewayError('invalid_request', `The multipart body could not be read: ${detail}.`, { code: 'invalid_multipart', cause: error });
}
