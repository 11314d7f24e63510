/**
 * The internal representation of image generation and editing, between the OpenAI Images surface and the
 * providers that make images (built-in, OpenAI and compatible servers, Gemini).
 */

/** The image file formats the gateway accepts and produces. */
export const imageFormats = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof imageFormats)[number];

export const imageMimeTypes: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** What every image request asks, whatever the surface. */
export interface ImageOptions {
  prompt: string;
  /** How many images, already checked against the model's `max_n`. */
  n: number;
  /** `WIDTHxHEIGHT` as the client sent it; absent (or `auto`) lets the model choose. */
  size?: string;
  quality?: string;
  outputFormat?: ImageFormat;
  /** 0–100, for JPEG and WebP output. */
  outputCompression?: number;
  /** `transparent`, `opaque` or `auto`. */
  background?: string;
  user?: string;
  /** In a streamed answer, how many partial images to send before each final one (0–3); 0 when absent. */
  partialImages?: number;
}

export interface ImageGenerationRequest extends ImageOptions {
  /**
   * The client's JSON body as it came, for upstreams that speak the OpenAI Images API themselves: they get
   * it with the least rewriting, so parameters the gateway does not model (`style`, `moderation`) still work.
   */
  body: Record<string, unknown>;
}

/** An uploaded source image, kept on disk for the length of the request. */
export interface SourceImage {
  /** Where the upload was written; deleted when the response ends. */
  path: string;
  /** Decided by the file's bytes, never by the declared content type. */
  format: ImageFormat;
  /** The client's file name, for error messages only: never a path, never sent upstream. */
  filename: string;
  bytes: number;
}

export interface ImageEditRequest extends ImageOptions {
  /** One or more source images, in the order sent. */
  images: SourceImage[];
  /** A PNG whose transparent pixels mark where the first image may change. */
  mask?: SourceImage;
  /** The client's text fields as they came (multipart scalars are strings), for OpenAI-speaking upstreams. */
  fields: Record<string, string>;
}

/** One produced image, with its bytes in whichever form the provider had them. */
export interface ProducedImage {
  data: ImageData;
  /** The prompt the model actually used, when it rewrote it (DALL·E 3). */
  revisedPrompt?: string;
}

export interface ImageResult {
  images: ProducedImage[];
  /** What the upstream reported about the images, echoed to the client as OpenAI does. */
  background?: 'transparent' | 'opaque';
  outputFormat?: ImageFormat;
  quality?: string;
  size?: string;
  usage?: ImageUsage;
}

/** What an answer says about its images besides the bytes, as ImageResult has it. */
export type ImageDetails = Pick<ImageResult, 'background' | 'outputFormat' | 'quality' | 'size'>;

/**
 * One step of a streamed image answer, in order: for each image its partial renderings (if any), then
 * the image itself. `usage` is the whole request's, on every completed image.
 *
 * `forwarded` is an event an upstream that speaks the OpenAI Images API sent in the client's own wire
 * form, passed on as it came (its data never re-serialized); `completed` says it is a final image.
 */
export type ImageStreamEvent =
  | { type: 'partial_image'; partialImageIndex: number; image: ImageData; details: ImageDetails }
  | { type: 'completed'; image: ProducedImage; details: ImageDetails; usage?: ImageUsage }
  | { type: 'forwarded'; event: string; data: string; completed: boolean; usage?: ImageUsage };

/** Token usage of token-priced image models (GPT image, Gemini). */
export interface ImageUsage {
  inputTokens: number;
  outputTokens: number;
  /** How the input splits between the prompt and source images, when the upstream says. */
  inputTextTokens?: number;
  inputImageTokens?: number;
}

/**
 * Image bytes held as base64 or as a buffer, converted only when the other form is asked for: an upstream's
 * `b64_json` goes to a `b64_json` client without being decoded and encoded again.
 */
export class ImageData {
  private constructor(
    private base64Text: string | undefined,
    private buffer: Buffer | undefined,
  ) {}

  static fromBase64(base64: string): ImageData {
    return new ImageData(base64, undefined);
  }

  static fromBytes(bytes: Buffer): ImageData {
    return new ImageData(undefined, bytes);
  }

  base64(): string {
    this.base64Text ??= this.buffer!.toString('base64');
    return this.base64Text;
  }

  bytes(): Buffer {
    this.buffer ??= Buffer.from(this.base64Text!, 'base64');
    return this.buffer;
  }

  /** The format the bytes say they are, reading only the first few. */
  format(): ImageFormat | undefined {
    const head = this.buffer ?? Buffer.from(this.base64Text!.slice(0, 24), 'base64');
    return sniffImageFormat(head);
  }
}

/**
 * PNG, JPEG or WebP by their signatures (PNG's 8-byte header, JPEG's SOI marker, WebP's RIFF…WEBP
 * container); anything else is undefined.
 */
export function sniffImageFormat(head: Uint8Array): ImageFormat | undefined {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return undefined;
}

/** `1024x768` → `{width: 1024, height: 768}`; undefined for `auto`, absent or malformed sizes. */
export function parseImageSize(size: string | undefined): { width: number; height: number } | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size ?? '');
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}
