import { z } from 'zod';

/**
 * What the gateway reads of an OpenAI embeddings answer
 * (https://platform.openai.com/docs/api-reference/embeddings/object): each item's `index` and `embedding`
 * (numbers; base64 of little-endian float32 from a server that answers so whatever it was asked),
 * `usage.prompt_tokens` and `model`. Compatible servers may leave out `usage`, `model` and `index`.
 */
export const embeddingsAnswerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative().nullish(), embedding: z.union([z.array(z.number()), z.string()]) })),
  model: z.string().nullish(),
  usage: z.object({ prompt_tokens: z.number().nullish() }).nullish(),
});
export type EmbeddingsAnswer = z.infer<typeof embeddingsAnswerSchema>;
