import type { OutboundConfig } from '../config/config-schema.js';
import { sniffImageFormat } from '../core/image-types.js';
import { GatewayError } from '../core/gateway-error.js';
import { UserUrlFetcher } from './fetch-user-url.js';
import { OutboundRefusal, type RefusalReason } from './outbound-refusal.js';

/** An image fetched for inlining: what a `data:` URL or a base64 media source is made of. */
export interface InlineImage {
  mediaType: string;
  /** Base64, no line breaks. */
  data: string;
}

/**
 * Called by a walker (see rewrite-request-image-urls.ts) for each image URL in a request, with the request
 * field that holds it as the client named it, when known. Returning an image replaces the URL; undefined
 * leaves it as it is.
 */
export type ImageUrlVisitor = (url: string, param: string | undefined) => InlineImage | undefined;

/** Rebuilds a request (of any wire) with the images the visitor returns in place of their URLs. */
export type ImageUrlRewriter<T> = (value: T, visit: ImageUrlVisitor) => T;

/** Fetched side by side: enough to overlap slow servers without one request opening many sockets. */
const concurrency = 4;

/** What the client is told, by reason; the numbers are the configured limits (see OutboundRefusal). */
const refusalWording: Record<RefusalReason, (details: OutboundRefusal['details']) => string> = {
  scheme: () => 'only http and https image URLs are accepted',
  private_address: ({ host }) => `image URL points to a private address (host '${host}')`,
  redirects: ({ limit }) => `image URL redirected more than ${limit} times`,
  too_large: ({ limit }) => `image is larger than ${limit} bytes`,
  timeout: ({ limit }) => `image URL did not answer within ${limit} ms`,
  status: ({ detail }) => `image URL answered HTTP ${detail}`,
  unreachable: ({ detail }) => `image URL could not be fetched (${detail ?? 'no answer'})`,
  wrong_type: ({ detail }) => `image URL answered with content type '${detail}', which is not an image`,
};

/** Types that say nothing about the bytes: judged by their first bytes instead. */
const untypedContent = new Set([undefined, 'application/octet-stream', 'binary/octet-stream']);

/**
 * Replaces the image URLs of a request with the images themselves, for upstreams that take only inline
 * data (Ollama and llama.cpp accept `data:` URLs alone). Fetches go through UserUrlFetcher's guard; a URL
 * it refuses, or that fails, is the client's to fix: a 400 `invalid_request` naming the field, which the
 * router does not retry elsewhere (it carries no upstream failure). `data:` URLs are already inline.
 *
 * @example
 * const inliner = new ImageInliner(config.outbound);
 * const inlined = await inliner.inline(request, rewriteRequestImageUrls, signal);
 */
export class ImageInliner {
  private readonly fetcher: UserUrlFetcher;

  constructor(private readonly limits: OutboundConfig) {
    this.fetcher = new UserUrlFetcher(limits);
  }

  /** `value` with every fetchable image URL inlined; the same object when it holds none. */
  async inline<T>(value: T, rewrite: ImageUrlRewriter<T>, signal: AbortSignal): Promise<T> {
    const found = new Map<string, string | undefined>();
    rewrite(value, (url, param) => {
      if (!isDataUrl(url) && !found.has(url)) found.set(url, param);
      return undefined;
    });
    if (found.size === 0) return value;
    if (found.size > this.limits.max_urls_per_request) {
      const param = [...found.values()][this.limits.max_urls_per_request];
      throw new GatewayError(
        'invalid_request',
        `This request has ${found.size} image URLs; the gateway fetches at most ${this.limits.max_urls_per_request} per request for this model's upstream. Send the others inline as base64 data: URLs.`,
        { param, code: 'invalid_image_url' },
      );
    }
    const images = await this.fetchAll([...found], signal);
    return rewrite(value, (url) => images.get(url));
  }

  close(): Promise<void> {
    return this.fetcher.close();
  }

  /** Every URL, `concurrency` at a time; the first failure stops the rest. */
  private async fetchAll(targets: Array<[url: string, param: string | undefined]>, clientSignal: AbortSignal): Promise<Map<string, InlineImage>> {
    const stopRest = new AbortController();
    const signal = AbortSignal.any([clientSignal, stopRest.signal]);
    const images = new Map<string, InlineImage>();
    const queue = [...targets];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [url, param] = next;
        images.set(url, await this.fetchImage(url, param, signal));
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
    } catch (error) {
      stopRest.abort();
      throw error;
    }
    return images;
  }

  private async fetchImage(url: string, param: string | undefined, signal: AbortSignal): Promise<InlineImage> {
    try {
      const fetched = await this.fetcher.fetch(url, {
        signal,
        accept: 'image/*',
        acceptsContentType: (type) => untypedContent.has(type) || type!.startsWith('image/'),
      });
      const mediaType = fetched.contentType?.startsWith('image/') ? fetched.contentType : sniffedMediaType(fetched.bytes);
      if (!mediaType) throw new OutboundRefusal('wrong_type', 'not an image', { detail: fetched.contentType ?? 'none' });
      return { mediaType, data: fetched.bytes.toString('base64') };
    } catch (error) {
      if (!(error instanceof OutboundRefusal)) throw error;
      const why = refusalWording[error.reason](error.details);
      const where = param ? ` (${param})` : '';
      throw new GatewayError(
        'invalid_request',
        `The gateway could not use an image URL${where}: ${why}. This model's upstream takes only inline images, so the gateway fetches image URLs for it; send the image as a base64 data: URL instead.`,
        { param, code: 'invalid_image_url', cause: error },
      );
    }
  }
}

function isDataUrl(url: string): boolean {
  return /^data:/i.test(url);
}

function sniffedMediaType(bytes: Buffer): string | undefined {
  const format = sniffImageFormat(bytes.subarray(0, 16));
  return format ? `image/${format}` : undefined;
}
