import { open } from 'node:fs/promises';
import { sniffImageFormat, type ImageFormat, type SourceImage } from '../../core/image-types.js';
import { GatewayError } from '../../core/gateway-error.js';

/** What the upload middleware (multer's disk storage) records of each file. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  /** Where it was written, under a random name. */
  path: string;
  size: number;
}

/** Uploaded files by field, as multer's `.fields()` leaves them on `req.files`. */
export type UploadedFiles = Partial<Record<string, UploadedFile[]>>;

/**
 * The edit's source images and mask, each typed by its first bytes: PNG, JPEG or WebP for images and PNG
 * for the mask; anything else is a 400 whatever content type the client declared.
 */
export async function readSourceImages(files: UploadedFiles | undefined): Promise<{ images: SourceImage[]; mask?: SourceImage }> {
  const uploads = [...(files?.image ?? []), ...(files?.['image[]'] ?? [])];
  if (uploads.length === 0) {
    throw new GatewayError('invalid_request', "No image to edit: send one file as 'image' or several as 'image[]'.", { param: 'image', code: 'missing_required_parameter' });
  }
  const images = await Promise.all(uploads.map((file) => toSourceImage(file, ['png', 'jpeg', 'webp'])));
  const maskFile = files?.mask?.[0];
  return { images, mask: maskFile ? await toSourceImage(maskFile, ['png']) : undefined };
}

async function toSourceImage(file: UploadedFile, accepted: readonly ImageFormat[]): Promise<SourceImage> {
  const format = sniffImageFormat(await readHead(file.path));
  if (!format || !accepted.includes(format)) {
    const wanted = accepted.length === 1 ? 'a PNG image' : 'a PNG, JPEG or WebP image';
    throw new GatewayError('invalid_request', `The file '${file.originalname}' in '${file.fieldname}' is not ${wanted} (judged by its contents, not its declared type '${file.mimetype}').`, {
      param: file.fieldname,
      code: 'invalid_image_format',
    });
  }
  return { path: file.path, format, filename: file.originalname, bytes: file.size };
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
