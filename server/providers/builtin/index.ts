/**
 * The built-in offline chat model (`type: builtin`): deterministic answers without network or keys, so a
 * newcomer can try the gateway at once and every test has a model to talk to.
 *
 * It echoes the user (`You said: …`), calls the first offered tool with schema-conforming arguments,
 * describes tool results, honours JSON response formats, stop sequences and `maxOutputTokens`, and
 * reports exact o200k_base token usage. See plan-answer.ts for the rules. Its image models draw from the
 * prompt and edit with real transformations (images/); its embedding model hashes character n-grams (embed/).
 */
import { randomUUID } from 'node:crypto';
import { foldSystemMessages } from '../../core/fold-system-messages.js';
import { countRequestTokens } from '../../core/token-counter.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import type { CallContext, Provider } from '../provider.js';
import { createBuiltinEmbeddings } from './embed/index.js';
import { createBuiltinImages } from './images/index.js';
import { planAnswer } from './plan-answer.js';
import { streamAnswer } from './stream-answer.js';
import type { ProviderDefinition } from '../provider-definition.js';

/** Options for {@link createBuiltinProvider}. */
export interface BuiltinProviderOptions {
  /** The provider's `id` in the config. */
  id?: string;
  /** Milliseconds between stream deltas; 0 (default) only yields to the event loop. */
  chunkDelayMs?: number;
}

/**
 * Creates the built-in provider. Answers depend only on the request; response IDs are random because
 * stores key on them.
 *
 * @example
 * const provider = createBuiltinProvider({ chunkDelayMs: 20 });
 * const response = await collectStream(provider.stream(request, { upstreamModel: 'echo', signal }));
 */
export function createBuiltinProvider(options: BuiltinProviderOptions = {}): Provider {
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 0);
  return {
    type: 'builtin',
    id: options.id ?? 'builtin',
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      context.signal.throwIfAborted();
      // Like most upstreams it reads instructions up front; a system message last must not hide the user's turn.
      const plan = planAnswer(foldSystemMessages(request));
      const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
      yield* streamAnswer(plan, { id, inputTokens: countRequestTokens(request), chunkDelayMs, signal: context.signal });
    },
    images: createBuiltinImages(),
    embeddings: createBuiltinEmbeddings(),
  };
}

/** The offline models: chat with tools and JSON schemas; the image and embedding models' capabilities are set in their config. */
export const builtinProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'json_schema'],
  tokenLimits: { input: 128_000, output: 8_192 },
  inlinesImageUrls: false,
  genAiName: 'unified_model_api.builtin',
  describeModel: (kind) => `The built-in offline ${kind} model.`,
  create: (config) => createBuiltinProvider({ id: config.id, chunkDelayMs: config.chunk_delay_ms }),
};
