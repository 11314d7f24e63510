import { toFile } from 'openai';
import type { ImagesResponse } from 'openai/resources/images';
import { requestTimeoutMs, type SoakClients } from './soak-clients.js';
import type { RequestKind } from './request-kind.js';
import { check } from './soak-check.js';
import { soakModels } from './soak-gateway-config.js';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const prompt = 'A lighthouse on a cliff at dusk';

/**
 * OpenAI Images through the `openai` SDK: generations and multipart edits, on the built-in models (drawn
 * in process with sharp) and on the fake upstream (a ~1 MB PNG the gateway decodes, and for `url` stores
 * as a file). Every `url` is then fetched without a key, as a browser would.
 */
export const imageKinds: RequestKind[] = [
  {
    name: `Image generation b64_json · ${soakModels.builtinImage}`,
    weight: 2,
    run: async ({ openai }) => {
      const result = await openai.images.generate({ model: soakModels.builtinImage, prompt, size: '256x256', response_format: 'b64_json' });
      checkPng(result);
    },
  },
  {
    name: `Image generation url + GET · ${soakModels.upstreamImage}`,
    weight: 1,
    run: async (clients) => {
      const result = await clients.openai.images.generate({ model: soakModels.upstreamImage, prompt, response_format: 'url' });
      await fetchImageUrl(result);
    },
  },
  {
    name: `Image edit url + GET · ${soakModels.builtinImageEdit}`,
    weight: 2,
    run: async (clients) => {
      const result = await clients.openai.images.edit({
        model: soakModels.builtinImageEdit,
        image: await sourceImage(clients),
        prompt: 'make it grayscale',
        size: '256x256',
        response_format: 'url',
      });
      await fetchImageUrl(result);
    },
  },
  {
    name: `Image edit b64_json · ${soakModels.upstreamImage}`,
    weight: 1,
    run: async (clients) => {
      const result = await clients.openai.images.edit({ model: soakModels.upstreamImage, image: await sourceImage(clients), prompt, response_format: 'b64_json' });
      checkPng(result);
    },
  },
];

function sourceImage(clients: SoakClients) {
  return toFile(clients.sourcePng, 'source.png', { type: 'image/png' });
}

function checkPng(result: ImagesResponse): void {
  const b64 = result.data?.[0]?.b64_json;
  check(b64 && Buffer.from(b64.slice(0, 8), 'base64').subarray(0, 4).equals(pngSignature), 'no PNG in b64_json');
}

/** Fetches the image URL the gateway handed out; the name is the credential, so no key is sent. */
export async function fetchImageUrl(result: ImagesResponse): Promise<void> {
  const url = result.data?.[0]?.url;
  check(url, 'no url in the answer');
  const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type');
  check(response.status === 200 && type === 'image/png' && bytes.subarray(0, 4).equals(pngSignature), `HTTP ${response.status}, ${type}, ${bytes.length} bytes`);
}
