// The internal representation of an embeddings call, which every client protocol's embeddings request
// (OpenAI's `/v1/embeddings`, Gemini's `:embedContent` and `:batchEmbedContents`) converts to, and every
// embedding-capable provider answers.

/** One text to embed: as text, or as the token IDs of the upstream's tokenizer (OpenAI clients may send those). */
export type EmbeddingInput = { type: 'text'; text: string } | { type: 'tokens'; tokens: number[] };

/** What the upstream is told the vectors are for (Gemini's `taskType`); others ignore it. */
export type EmbeddingTask =
  | 'retrieval_query'
  | 'retrieval_document'
  | 'semantic_similarity'
  | 'classification'
  | 'clustering'
  | 'question_answering'
  | 'fact_verification'
  | 'code_retrieval_query';

export interface EmbeddingRequest {
  /** The gateway model ID. */
  model: string;
  /** At least one; the answer has one vector per input, in order. */
  inputs: EmbeddingInput[];
  /** Vector length wanted, for models that can shorten theirs (OpenAI `dimensions`, Gemini `outputDimensionality`). */
  dimensions?: number;
  task?: EmbeddingTask;
  /** Gemini's `title`, for `retrieval_document`. */
  title?: string;
}

export interface EmbeddingResult {
  /** One vector per input, in the inputs' order. */
  vectors: number[][];
  /** Input tokens the upstream counted (or the gateway estimated, where it reports none). */
  inputTokens: number;
  /** True when `inputTokens` is the gateway's estimate (the upstream reported none). */
  estimated?: boolean;
  /** The model name the upstream reported, where it does. */
  upstreamModel?: string;
}
