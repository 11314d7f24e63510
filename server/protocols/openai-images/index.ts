/**
 * OpenAI's Images API: generations and edits (JSON or streamed), and the files of images the gateway
 * keeps for `response_format: url`.
 */
import type { ClientProtocolDefinition } from '../protocol-definition.js';
import { createImageEditHandler } from './handle-create-image-edit.js';
import { createImageHandler } from './handle-create-image.js';
import { createGetImageFileHandler } from './handle-get-image-file.js';
import { imagesProtocol } from './images-protocol.js';

export const openAIImagesDefinition = {
  ...imagesProtocol,
  operations: (deps) => ({
    createImage: createImageHandler(deps.images),
    createImageEdit: createImageEditHandler(deps.images),
    getImageFile: createGetImageFileHandler(deps.images.storage),
  }),
} satisfies ClientProtocolDefinition<'openai-images'>;
