import { pipeline } from 'node:stream/promises';
import type { OperationHandler } from '../../../generated/operations.js';
import { imageMimeTypes } from '../../core/image-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ImageStorage } from '../../image-files/image-storage.js';

/**
 * `GET /v1/images/files/{file}`: no key, the unguessable name is the credential. Unknown, malformed and
 * expired names are all the same 404, so a prober learns nothing from the answer.
 */
export function createGetImageFileHandler(storage: ImageStorage): OperationHandler<'getImageFile'> {
  return async (req, res) => {
    const image = await storage.open(req.params.file);
    if (!image) throw new GatewayError('not_found', 'No such image file: it never existed or its URL has expired.', { code: 'image_not_found' });
    const secondsLeft = Math.max(0, Math.floor((image.expiresAt - Date.now()) / 1000));
    res.status(200);
    res.setHeader('content-type', imageMimeTypes[image.format]);
    res.setHeader('content-length', String(image.bytes));
    res.setHeader('cache-control', `private, max-age=${secondsLeft}`);
    res.setHeader('x-content-type-options', 'nosniff');
    // A client that goes away ends the pipeline early; the file descriptor is closed either way.
    await pipeline(image.body, res).catch(() => undefined);
  };
}
