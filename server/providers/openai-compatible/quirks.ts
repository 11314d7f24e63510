import type { ProviderType } from '../../config/config-schema.js';
import type { CompatibleQuirks } from '../openai/config-keys.js';

/** How a Chat Completions server differs from OpenAI, with every choice made. */
export interface ResolvedQuirks {
  /** Send `stream_options: {include_usage: true}` so the stream ends with a usage chunk. */
  streamOptions: boolean;
  /** The field that carries the output-token limit. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Whether `developer` messages may go upstream as they are; if not they are sent as `system`. */
  developerRole: boolean;
  /** Whether a system message may follow user and assistant turns; if not, they are folded into the first one. */
  systemAnywhere: boolean;
}

/**
 * OpenAI itself: `max_tokens` is deprecated there and refused by reasoning models
 * (`unsupported_parameter`, see the openai-chat/error-unsupported-parameter.json recording), while
 * `max_completion_tokens` works for every model.
 */
const openAIDefaults: ResolvedQuirks = { streamOptions: true, maxTokensField: 'max_completion_tokens', developerRole: true, systemAnywhere: true };

/**
 * What vLLM, Ollama, llama.cpp, Groq and DeepSeek all accept:
 * - `stream_options.include_usage`: all of them honour it in current versions (an older build that
 *   rejects or ignores it can set `stream_options: false`; usage is then simply missing).
 * - `max_tokens`: the field every one of them reads; `max_completion_tokens` is newer and not read by all
 *   of them (or by their older versions), and a server that ignores an unknown field would drop the limit.
 * - no `developer` role: it is OpenAI's newer name for `system`; chat templates of local models
 *   (vLLM, llama.cpp, Ollama) and DeepSeek's API know only `system`, which means the same thing.
 * - system messages up front only: many chat templates (Qwen's, Llama's in vLLM) raise "System message
 *   must be at the beginning" for one that follows the conversation's first turn.
 */
const compatibleDefaults: ResolvedQuirks = { streamOptions: true, maxTokensField: 'max_tokens', developerRole: false, systemAnywhere: false };

/**
 * The configured `quirks` over the defaults for the provider type. The overrides apply to `openai` too,
 * so a proxy in front of OpenAI can be described the same way.
 *
 * @example
 * resolveQuirks({ stream_options: false }, 'openai-compatible');
 * // → { streamOptions: false, maxTokensField: 'max_tokens', developerRole: false, systemAnywhere: false }
 */
export function resolveQuirks(configured: CompatibleQuirks | undefined, type: ProviderType): ResolvedQuirks {
  const defaults = type === 'openai' ? openAIDefaults : compatibleDefaults;
  return {
    streamOptions: configured?.stream_options ?? defaults.streamOptions,
    maxTokensField: configured?.max_tokens_field ?? defaults.maxTokensField,
    developerRole: configured?.developer_role ?? defaults.developerRole,
    systemAnywhere: configured?.system_anywhere ?? defaults.systemAnywhere,
  };
}
