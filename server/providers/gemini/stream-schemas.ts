import { z } from 'zod';

/**
 * What the translation reads of a GenerateContentResponse as `streamGenerateContent?alt=sse` sends it
 * (https://ai.google.dev/api/generate-content#generatecontentresponse), checked once per event in
 * convert-stream.ts. Chunks leave out whatever did not change and Google's JSON leaves out zeros, so every
 * field may be missing; fields not named here (and part kinds such as `executableCode`) are accepted and
 * dropped; any `finishReason` string goes. What is named must have its type: `candidates` that is not an
 * array, or counts that are strings, are a malformed chunk.
 */

const count = z.number().nullish();

/** Counts Gemini leaves out are 0 (read-usage.ts). */
export const geminiUsageSchema = z.object({
  promptTokenCount: count,
  cachedContentTokenCount: count,
  candidatesTokenCount: count,
  toolUsePromptTokenCount: count,
  thoughtsTokenCount: count,
  /** The prompt's tokens by modality (`TEXT`, `IMAGE`, `AUDIO`, `VIDEO`): audio is priced apart. */
  promptTokensDetails: z.array(z.object({ modality: z.string().nullish(), tokenCount: count })).nullish(),
});
export type GeminiUsageMetadata = z.infer<typeof geminiUsageSchema>;

/** A response part: text (or a thought), a whole function call, or a kind the converter skips. */
const part = z.object({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z
    .object({
      id: z.string().nullish(),
      name: z.string(),
      args: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
});
export type GeminiResponsePart = z.infer<typeof part>;

export const geminiChunkSchema = z.object({
  responseId: z.string().nullish(),
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(part).nullish() }).nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish() }).nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
});
export type GeminiChunk = z.infer<typeof geminiChunkSchema>;
