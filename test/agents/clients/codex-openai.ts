/**
 * Codex CLI configured the other two ways a user points it at the gateway, both over the Responses API's
 * WebSocket mode (issue 36):
 *
 * - its built-in `openai` provider with `openai_base_url` at the gateway. That provider has
 *   `supports_websockets: true` and `requires_openai_auth: true` (`create_openai_provider` in
 *   codex-rs/model-provider-info/src/lib.rs), so it opens `GET /v1/responses` with `Upgrade: websocket`
 *   first, and takes its key from auth.json or, for `codex exec`, from `CODEX_API_KEY` (`load_auth` in
 *   codex-rs/login; Codex's own exec tests run it so: `CODEX_API_KEY` and `-c openai_base_url=…`).
 *   `OPENAI_API_KEY` is not read by `codex exec` (tried: every request then went without a key);
 * - a provider of its own with `supports_websockets = true`, the key in the variable `env_key` names.
 *
 * Both send what `codex` sends over HTTP, so their requests are recorded and replayed as its.
 */
import { codexClient, codexConfig, KEY_VARIABLE } from './codex.js';

/** The variable `codex exec` reads an API key from for the built-in provider. */
export const CODEX_KEY_VARIABLE = 'CODEX_API_KEY';

/** Below any one request's usage, so the first follow-up of a turn compacts. */
const COMPACT_TOKEN_LIMIT = 1;

/** The config.toml the README shows for the built-in provider (with the gateway's address). */
export function codexOpenAIConfig(baseUrl: string, model: string): string {
  return [`model = "${model}"`, `openai_base_url = "${baseUrl}"`, 'check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', ''].join('\n');
}

/** `codex`'s config.toml with its provider's `supports_websockets = true`. */
function webSocketProviderConfig(baseUrl: string, model: string): string {
  const config = codexConfig(baseUrl, model).replace('wire_api = "responses"\n', 'wire_api = "responses"\nsupports_websockets = true\n');
  if (!config.includes('supports_websockets = true')) throw new Error('codexConfig no longer has the line supports_websockets is put after');
  return config;
}

/** What the three share: they send `codex`'s requests (recorded and replayed as its), over the WebSocket. */
const likeCodexOverWebSocket = { sameRequestsAs: 'codex', transport: 'websocket' } as const;

export const codexOpenAI = codexClient({ name: 'codex-openai', ...likeCodexOverWebSocket, config: codexOpenAIConfig, keyVariable: CODEX_KEY_VARIABLE });

export const codexWebSocketProvider = codexClient({
  name: 'codex-websocket-provider',
  ...likeCodexOverWebSocket,
  config: webSocketProviderConfig,
  keyVariable: KEY_VARIABLE,
});

/**
 * The built-in provider with a tiny `model_auto_compact_token_limit`: once a turn has used that many tokens
 * and must go on (its tool result is in), Codex compacts before the next request. With this provider that is
 * a remote compaction (0.171: a Responses request ending in a `compaction_trigger` item, which must be
 * answered with exactly one `compaction` item), then the request that carries the item back.
 */
export const codexCompaction = codexClient({
  name: 'codex-compaction',
  ...likeCodexOverWebSocket,
  compacts: true,
  // A top-level key: before the file's first table.
  config: (baseUrl, model) => `model_auto_compact_token_limit = ${COMPACT_TOKEN_LIMIT}\n${codexOpenAIConfig(baseUrl, model)}`,
  keyVariable: CODEX_KEY_VARIABLE,
});
