import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * Every byte the fake upstream sends, built once at start-up so that answering costs it nothing but a
 * write. Shapes follow real recordings in test/fixtures/upstream-recorded/openai-chat/ and openai-images/
 * (`obfuscation`, `service_tier`, `usage: null` on every chunk, a last chunk with empty `choices` and usage).
 */
export interface UpstreamPayloads {
  /** `chat.completion` JSON. */
  chatCompletion: Buffer;
  /** 100 SSE events (`data: {chat.completion.chunk}\n\n`): role, 97 content deltas, finish, usage. */
  chatChunks: Buffer[];
  /** `data: [DONE]\n\n`. */
  done: Buffer;
  /** Images API JSON with one PNG of about 1 MB as `b64_json`. */
  imageGeneration: Buffer;
}

export const streamChunkCount = 100;

const id = 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0';
const created = 1770933892;
const model = 'gpt-4.1-nano-2025-04-14';
const promptTokens = 16;

const answerText =
  '**Holiday Name:** Galaxy Day\n\n**Date:** October 31st, when the night sky shows its brightest constellations. ' +
  '**Purpose:** Galaxy Day celebrates the vastness and beauty of the universe and our shared curiosity about the cosmos. ' +
  'It is a time to honour science, imagination and wonder. **Traditions:** Communities gather in parks, on rooftops and in ' +
  'open fields to look at the stars through telescopes, share myths about the constellations and tell stories about space. ' +
  'People dress up as planets, comets and astronauts, schools hold exhibitions, and families light lanterns to remind ' +
  'themselves that even the smallest light can shine across the dark. Galaxy Day brings people together to look up and dream.';

/** Word-sized deltas with their leading space, as a tokenizer would cut them. */
function contentDeltas(count: number): string[] {
  const words = answerText.match(/\s*\S+/g) ?? [];
  if (words.length < count) throw new Error(`answer text has ${words.length} words, needs ${count}`);
  return words.slice(0, count);
}

function sseEvent(data: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(data)}\n\n`);
}

/** OpenAI pads each chunk with a random-length `obfuscation` string; any varying text will do here. */
function obfuscation(index: number): string {
  return 'Qup1BsQ3yhjoJbEF'.slice(0, 2 + (index % 7));
}

function chunk(index: number, choices: unknown[], usage: unknown = null): Buffer {
  return sseEvent({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    service_tier: 'default',
    system_fingerprint: 'fp_de604bd877',
    choices,
    usage,
    obfuscation: obfuscation(index),
  });
}

function usage(completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function buildChatChunks(): Buffer[] {
  const deltas = contentDeltas(streamChunkCount - 3);
  const delta = (content: string) => ({ index: 0, delta: { content }, logprobs: null, finish_reason: null });
  return [
    chunk(0, [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]),
    ...deltas.map((content, index) => chunk(index + 1, [delta(content)])),
    chunk(deltas.length + 1, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]),
    chunk(deltas.length + 2, [], usage(deltas.length)),
  ];
}

function buildChatCompletion(): Buffer {
  const deltas = contentDeltas(streamChunkCount - 3);
  return Buffer.from(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: deltas.join(''), refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: usage(deltas.length),
      service_tier: 'default',
      system_fingerprint: 'fp_de604bd877',
    }),
  );
}

/**
 * A real PNG (the gateway sniffs the format of images it serves) of random pixels stored uncompressed, so
 * its size is predictable: about `targetBytes`.
 */
async function noisePng(targetBytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(targetBytes / 3));
  const pixels = randomBytes(side * side * 3);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

async function buildImageGeneration(): Promise<Buffer> {
  const png = await noisePng(1024 * 1024);
  return Buffer.from(
    JSON.stringify({
      created,
      background: 'opaque',
      data: [{ b64_json: png.toString('base64') }],
      output_format: 'png',
      quality: 'low',
      size: '1024x1024',
      usage: { input_tokens: 12, input_tokens_details: { image_tokens: 0, text_tokens: 12 }, output_tokens: 272, total_tokens: 284 },
    }),
  );
}

export async function buildUpstreamPayloads(): Promise<UpstreamPayloads> {
  return {
    chatCompletion: buildChatCompletion(),
    chatChunks: buildChatChunks(),
    done: Buffer.from('data: [DONE]\n\n'),
    imageGeneration: await buildImageGeneration(),
  };
}
