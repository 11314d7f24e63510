import { candidatesOf, namedCapOf, withOutputCap, type OutputCapFields } from '../../access/output-ceiling.js';
import type { ModelPricing } from '../../config/config-schema.js';
import type { LimitScope, ReserveRequest } from '../../limits/limit-store.js';
import { imagePrice, worstCaseRates } from '../cost.js';
import { countMediaReferences, worstCaseMediaReferenceTokens } from './count-media-references.js';
import { estimateEmbeddingTokens } from './estimate-embedding-tokens.js';
import { estimatePromptTokens } from './estimate-prompt-tokens.js';
import type { MeteredEndpoint } from './metered-endpoint.js';

/**
 * The most output tokens one generated image can be billed: gpt-image-1 at high quality and 1536×1024
 * ("Cost and latency" in OpenAI's image generation guide, platform.openai.com/docs/guides/image-generation).
 * Image requests name no output cap, so this bounds their worst case.
 */
export const worstCaseImageOutputTokens = 6_240;

export interface ReservationPlanInput {
  endpoint: MeteredEndpoint;
  /** The parsed body; undefined for a multipart upload, which is read only after admission. */
  body: unknown;
  scopes: LimitScope[];
  pricing: ModelPricing | undefined;
  /** The caller's `max_output_tokens` permission, if any: a granted cap never exceeds it. */
  permittedOutputTokens: number | undefined;
  /** `limits.default_output_tokens`: the most a cap the gateway sets may grant. */
  defaultOutputTokens: number;
  /** The model's `max_output_tokens` (its own or the price catalog's): no answer can be longer, so no grant is. */
  modelMaxOutputTokens?: number;
  /** The model's `images.max_n`: an upload's `n` is unknown at admission, so it may be as many. */
  maxImages: number;
}

/**
 * What a request reserves against its limits: its prompt (estimated from the body, media by reference at
 * its worst case) and its worst-case output, as tokens and, at the model's dearest prices that can apply
 * (every kind of token, tier and service tier the request may be billed at: usage/cost.ts), as dollars. A request that names an output cap reserves
 * all of it. One that names none, when its caller has a tokens_per_minute or spend limit, gets a cap
 * from the gateway (`flexibleOutput`, granted by the store from the room left) so that neither limit can
 * be overrun by an answer of unbounded length. Image requests reserve their `n` images; embeddings, which
 * generate nothing, only their prompt.
 */
export function planReservation(input: ReservationPlanInput): Omit<ReserveRequest, 'scopes' | 'now'> {
  const { endpoint, body, pricing } = input;
  if (!endpoint.consumesTokens) return { tokens: 0 };
  // OpenAI's embeddings input may be token IDs, which the prompt estimate does not count.
  // Media named by reference reserves its worst case, not the length of its reference.
  const prompt =
    endpoint.protocol === 'openai-embeddings' ? estimateEmbeddingTokens(body) : estimatePromptTokens(body) + countMediaReferences(body) * worstCaseMediaReferenceTokens;
  const rates = worstCaseRates(pricing, prompt, requestedServiceTier(body));
  const inputUsd = prompt * rates.input;
  if (!endpoint.generatesOutput) return { tokens: prompt, costUsd: inputUsd };
  const usdPerOutputToken = rates.output;
  if (endpoint.protocol === 'openai-images') {
    const images = requestedImages(body) ?? input.maxImages;
    const outputTokens = images * worstCaseImageOutputTokens;
    // An upload's body is read only after admission: its size and quality are unknown, so the dearest image.
    const perImage = imagePrice(pricing, body === undefined ? undefined : { size: stringField(body, 'size'), quality: stringField(body, 'quality') });
    return { tokens: prompt + outputTokens, costUsd: inputUsd + outputTokens * usdPerOutputToken + images * perImage };
  }
  const named = namedOutputCap(endpoint.outputCap, body);
  if (named !== undefined) return { tokens: prompt + named, costUsd: inputUsd + named * usdPerOutputToken };
  if (!input.scopes.some(({ limits }) => limits.tokens_per_minute !== undefined || limits.spend_per_day_usd !== undefined || limits.spend_per_month_usd !== undefined)) {
    return { tokens: prompt, costUsd: inputUsd };
  }
  const upTo = Math.min(input.defaultOutputTokens, input.permittedOutputTokens ?? Infinity, input.modelMaxOutputTokens ?? Infinity);
  return { tokens: prompt, costUsd: inputUsd, flexibleOutput: { upTo, usdPerToken: usdPerOutputToken } };
}

/**
 * The most output the request names in its protocol's cap fields (`fields`, none for a protocol that
 * names no cap): its cap times the answers it asks for (Gemini's `candidateCount`), each
 * of which may be as long as the cap; undefined when it names no cap.
 */
export function namedOutputCap(fields: OutputCapFields | undefined, body: unknown): number | undefined {
  const named = fields && namedCapOf(body, fields);
  return named ? named.value * candidatesOf(body, fields) : undefined;
}

/**
 * The body with the granted output in the protocol's own field, shared among the answers it asks for,
 * before anything reads it: a pass-through forwards it and a translation carries it, so the upstream
 * generates no more than was reserved.
 */
export function withGrantedOutputCap(fields: OutputCapFields | undefined, body: object, granted: number): object {
  return fields ? withOutputCap(body, fields, granted) : body;
}

/**
 * The `service_tier` a body asks for (Chat, Responses and Messages all name it so; Gemini has none), which
 * prices the request when the upstream reports none: `pricing.service_tiers` (usage/cost.ts).
 */
export function requestedServiceTier(body: unknown): string | undefined {
  return stringField(body, 'service_tier');
}

/** A string field of a JSON body (an image request's `size` and `quality`, the `service_tier`); undefined when absent or not a string. */
export function stringField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function requestedImages(body: unknown): number | undefined {
  const n = (body as { n?: unknown } | undefined)?.n;
  if (body !== undefined && n === undefined) return 1;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}
