import type { BatchInputProblem } from './check-batch-input.js';

/**
 * An uploaded file as the upload step leaves it on the request (multer's `req.file`): its content already
 * in the file storage under `fileId`, not yet a file of anyone's. Unless the handler records it and sets
 * `kept`, the content is removed when the response ends.
 */
export interface StoredUpload {
  fileId: string;
  size: number;
  /** The name the client gave the part. */
  originalname: string;
  /** The first bad line, had the file been batch input (the purpose may arrive after the file). */
  batchProblem?: BatchInputProblem;
  kept?: boolean;
}

/** The stored upload of a request, if its form had a file part. */
export function storedUploadOf(req: object): StoredUpload | undefined {
  const file = (req as { file?: Partial<StoredUpload> }).file;
  return file?.fileId === undefined ? undefined : (file as StoredUpload);
}
