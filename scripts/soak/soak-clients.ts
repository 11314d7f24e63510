import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import sharp from 'sharp';

/**
 * What every request kind gets: the three official SDKs pointed at the gateway as their users would
 * point them (no retries, so that each call is one request and a failure is seen, not papered over), the
 * origin and key for raw calls, and a small PNG for edits.
 */
export interface SoakClients {
  origin: string;
  apiKey: string;
  openai: OpenAI;
  anthropic: Anthropic;
  gemini: GoogleGenAI;
  /** A 64×64 PNG to upload to /v1/images/edits. */
  sourcePng: Buffer;
}

/** Longer than any healthy call here takes on a loaded 2-core machine; a hung request is a failure. */
export const requestTimeoutMs = 30_000;

export async function createSoakClients(origin: string, apiKey: string): Promise<SoakClients> {
  return {
    origin,
    apiKey,
    openai: new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0, timeout: requestTimeoutMs }),
    anthropic: new Anthropic({ apiKey, baseURL: origin, maxRetries: 0, timeout: requestTimeoutMs }),
    // No retryOptions: @google/genai retries only when given them.
    gemini: new GoogleGenAI({ apiKey, httpOptions: { baseUrl: origin, timeout: requestTimeoutMs } }),
    sourcePng: await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer(),
  };
}
