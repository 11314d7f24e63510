import { z } from 'zod';
import { allowEntryProblem } from '../outbound/address-policy.js';
import { providerConfigProblems, providerTypes, typeServes, typeSpecificConfigKeys, typesServing } from '../providers/provider-config-rules.js';
import { commonProviderKeys } from './provider-entry.js';

/**
 * The gateway configuration file (`gateway.yaml`). Key names are part of the public contract: later
 * features extend this schema, never rename its keys. Objects are strict so a misspelt key is reported
 * at start-up instead of silently ignored.
 */

/**
 * The provider types are those of the types' config entries (providers/provider-config-rules.ts): a list
 * that loads no provider's code, because the providers' code reads this config.
 */
export type { ProviderType } from '../providers/provider-config-rules.js';

export const modelCapabilities = [
  'chat',
  'streaming',
  'tools',
  'vision',
  'json_schema',
  'reasoning',
  'image_generation',
  'image_edit',
  'embeddings',
] as const;
export type ModelCapability = (typeof modelCapabilities)[number];

const milliseconds = (max: number) => z.number().int().min(1).max(max);

/** The keys every provider entry may have, whatever its type (provider-entry.ts), in the order errors name them. */
const { id, ...otherCommonKeys } = commonProviderKeys;
const everyProvidersKeys = { id, type: z.enum(providerTypes), ...otherCommonKeys };

const sharedKey = Object.keys(typeSpecificConfigKeys).find((key) => key in everyProvidersKeys);
if (sharedKey) throw new Error(`a provider definition declares '${sharedKey}', a key every provider entry has`);

/**
 * A provider entry: the common keys and every type's own (its config entry's `config.keys`); the keys of
 * other types are refused in configSchema's refinement (providers/provider-config-rules.ts).
 */
const providerSchema = z.strictObject({ ...everyProvidersKeys, ...typeSpecificConfigKeys });

const deploymentSchema = z.strictObject({
  provider: z.string().min(1),
  upstream_model: z.string().min(1).optional(),
  /** Share of traffic among healthy deployments (relative). */
  weight: z.number().positive().max(1_000_000).default(1),
});

const imageSizePattern = /^(auto|[1-9]\d{0,4}x[1-9]\d{0,4})$/;

/**
 * What an image model takes. A request outside these gets a 400 naming the parameter and listing the valid
 * values. Unset lists allow anything the contract allows.
 */
const modelImagesSchema = z.strictObject({
  /** `WIDTHxHEIGHT` values (and `auto`) the model makes. */
  sizes: z.array(z.string().regex(imageSizePattern, 'WIDTHxHEIGHT or auto')).min(1).optional(),
  /** Largest `n` per request (the contract's ceiling is 10). */
  max_n: z.number().int().min(1).max(10).default(10),
  response_formats: z.array(z.enum(['url', 'b64_json'])).min(1).default(['url', 'b64_json']),
  /** Used when the request has no `response_format`. */
  default_response_format: z.enum(['url', 'b64_json']).default('b64_json'),
  output_formats: z.array(z.enum(['png', 'jpeg', 'webp'])).min(1).default(['png', 'jpeg', 'webp']),
});

const dollars = z.number().min(0).max(1_000_000);

/**
 * Token prices, US dollars per million tokens. Cached input (a cache read), cache writes and reasoning
 * default to the plain input or output price: a provider that prices them apart has them in the catalog.
 */
const tokenPricesSchema = z.strictObject({
  input_per_mtok: dollars.default(0),
  cached_input_per_mtok: dollars.optional(),
  /** Prompt tokens written to Anthropic's 5-minute cache (`cache_control` without a `ttl`, or `ttl: 5m`). */
  cache_write_5m_per_mtok: dollars.optional(),
  /** Prompt tokens written to Anthropic's 1-hour cache (`cache_control: { ttl: 1h }`). */
  cache_write_1h_per_mtok: dollars.optional(),
  output_per_mtok: dollars.default(0),
  /** Reasoning (thinking) tokens, where a model bills them apart from the rest of its output. */
  reasoning_per_mtok: dollars.optional(),
  /** Audio tokens of the prompt and of the answer (OpenAI's audio models, Gemini's audio input). */
  audio_input_per_mtok: dollars.optional(),
  audio_output_per_mtok: dollars.optional(),
});

/** Prices of a prompt-size tier: a request whose input (cached and cache-written included) is above the threshold. */
const promptTierSchema = tokenPricesSchema.extend({ above_input_tokens: z.number().int().min(1) });

/** One price of a generated image, by its `size` and `quality` (either left out: any). */
const imagePriceSchema = z.strictObject({
  size: z.string().regex(imageSizePattern, 'WIDTHxHEIGHT or auto').optional(),
  quality: z.string().min(1).max(32).optional(),
  usd: dollars,
});

const multiplier = z.number().min(0).max(100);

/**
 * Prices in US dollars, for the usage ledger's cost and spend limits. `per_image` is each generated image;
 * `image_prices` price one by size and quality (the first entry that matches the request's; `per_image` when
 * none does). `long_context`: the prices of a request whose input is above `above_input_tokens` (Anthropic
 * and Gemini bill all of such a request at them); a list for several tiers, the highest threshold passed
 * wins. `service_tiers`: a multiplier of the token cost per `service_tier` the upstream reports having used
 * (or, when it reports none, the one requested): `{ priority: 2, flex: 0.5 }`; a tier not named costs as
 * usual. `batch_multiplier`: the same for work the upstream reports as batch-processed (`service_tier:
 * batch`). Neither multiplies image prices.
 */
export const pricingSchema = tokenPricesSchema.extend({
  per_image: dollars.default(0),
  image_prices: z.array(imagePriceSchema).min(1).optional(),
  long_context: z.union([promptTierSchema, z.array(promptTierSchema).min(1)]).optional(),
  service_tiers: z.record(z.string().min(1).max(64), multiplier).optional(),
  batch_multiplier: multiplier.optional(),
});
/** An image model's settings when its config says nothing. */
export const defaultModelImages = modelImagesSchema.parse({});

const modelSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[A-Za-z0-9._:\-/@]+$/, 'letters, digits and . _ : - / @ only'),
  /** Shorthand for a single deployment; give either this or `deployments`. */
  provider: z.string().min(1).optional(),
  upstream_model: z.string().min(1).optional(),
  deployments: z.array(deploymentSchema).min(1).optional(),
  /** Other model IDs tried, in order, when every deployment of this one has failed. */
  fallbacks: z.array(z.string().min(1)).default([]),
  /**
   * Requests of one session (a `prompt_cache_key`, a coding agent's session header: core/session-key.ts) go
   * to the same deployment while it is healthy, so the provider's prompt cache stays warm.
   */
  session_affinity: z.boolean().default(true),
  /** Defaults by provider type: its definition's `defaultCapabilities` (providers/<type>/index.ts). */
  capabilities: z.array(z.enum(modelCapabilities)).optional(),
  /** A request parameter the model cannot honour is dropped (and named in a header) or refused with 400. */
  on_unsupported: z.enum(['drop', 'reject']).default('drop'),
  /** Unix seconds reported as `created` in the model list. */
  created: z.number().int().min(0).optional(),
  /**
   * What the model costs. Without it, the price catalog's for the model's (first) upstream model, when the
   * catalog knows it (catalog/README.md); else requests cost 0.
   */
  pricing: pricingSchema.optional(),
  /** Prompt tokens the model takes; from the catalog when unset. */
  context_window: z.number().int().min(1).max(100_000_000).optional(),
  /** Most tokens one answer may have; from the catalog when unset. */
  max_output_tokens: z.number().int().min(1).max(100_000_000).optional(),
  /**
   * Who runs this model's lines of a batch (`/v1/batches`, `/v1/messages/batches`): `gateway` sends each
   * through the routed call as a client's request; `upstream` forwards them as one batch to the deployment's
   * own batch API (OpenAI's, Anthropic's), for its discount, priced at `pricing.batch_multiplier`
   * (server/batches/upstream/). Only for models whose every provider has one (`serves.batches`).
   */
  batch: z.enum(['gateway', 'upstream']).default('gateway'),
  /** Image models (`image_generation`, `image_edit` capabilities): the parameters they take. */
  images: modelImagesSchema.default(() => modelImagesSchema.parse({})),
});

/** How the router retries. Defaults are documented in the README. */
const routingSchema = z.strictObject({
  /** Attempts per model (first try included) before moving to the fallbacks. */
  max_attempts: z.number().int().min(1).max(10).default(3),
  /** First backoff; doubles per retry, with jitter, up to `max_backoff_ms`. */
  backoff_ms: z.number().int().min(0).max(60_000).default(200),
  max_backoff_ms: z.number().int().min(0).max(60_000).default(4_000),
  /** A `retry-after` longer than this is not waited for: the next deployment or fallback is tried instead. */
  max_retry_after_ms: z.number().int().min(0).max(600_000).default(10_000),
  /** Consecutive failures after which a deployment is skipped … */
  failures_before_cooldown: z.number().int().min(1).max(100).default(3),
  /** … for this long. */
  cooldown_ms: z.number().int().min(0).max(3_600_000).default(30_000),
});

/** How limits are kept (the limits themselves belong to accounts and keys, set through the admin API). */
const limitsSchema = z.strictObject({
  /**
   * The output cap the gateway sets on a request that names none when its account or key has a
   * tokens_per_minute or spend limit: without a cap, what a request may use (and cost) is unbounded, so
   * no limit could hold. Fewer tokens are granted when the minute has less room left.
   */
  default_output_tokens: z.number().int().min(1).max(1_000_000).default(8_192),
});

/** The Responses API's stored conversations (`store: true`). */
const responsesSchema = z.strictObject({
  /** How long a stored response can be retrieved or built on; expired ones are purged. */
  retention_days: z.number().positive().max(3_650).default(30),
  /** How often expired responses are deleted. */
  purge_interval_minutes: z.number().positive().max(1_440).default(60),
  /**
   * How long one WebSocket connection on `GET /v1/responses` may live: OpenAI's WebSocket mode caps it at
   * 60 minutes and then answers `websocket_connection_limit_reached`. Fractions allow seconds (tests).
   */
  websocket_max_connection_minutes: z.number().positive().max(24 * 60).default(60),
});

/**
 * Batches the gateway runs itself (`POST /v1/messages/batches`; server/batches/). Each instance runs at most
 * `lines_in_flight` lines at once, each as a request under the account's limits like any other, so a batch
 * takes no more of an instance than that and leaves the rest of its limits to interactive traffic.
 */
const batchesSchema = z.strictObject({
  /** Runs batch lines on this instance; false leaves them to other instances sharing the store. */
  enabled: z.boolean().default(true),
  /** Lines this instance runs at once (the pace). */
  lines_in_flight: z.number().int().min(1).max(1_000).default(4),
  /** How often an idle instance looks for lines, and ends canceled and expired ones. */
  poll_interval_ms: z.number().int().min(10).max(60_000).default(1_000),
  /** How long a claimed line is an instance's unless renewed (every third of it while it runs): a dead instance's lines are taken over after it. */
  lease_seconds: z.number().min(0.5).max(600).default(30),
  /** Claims of one line (each after its instance stopped mid-line) after which the line errors instead of running again. */
  max_attempts: z.number().int().min(1).max(100).default(3),
  /** Most requests in one batch (Anthropic's limit). */
  max_requests: z.number().int().min(1).max(100_000).default(100_000),
  /** Hours after which the lines not done are expired (24, as at Anthropic and OpenAI). Fractions allow tests. */
  expires_after_hours: z.number().positive().max(24 * 7).default(24),
  /** How often a batch forwarded to an upstream's batch API (`batch: upstream`) is polled there. */
  upstream_poll_interval_ms: z.number().int().min(10).max(3_600_000).default(30_000),
});

/**
 * Cross-origin access from browsers, off by default: a web page calling the gateway directly with a key
 * shows that key to its users, so an operator turns it on for named origins on purpose.
 */
const corsSchema = z.strictObject({
  /** Origins (`https://app.example.com`) allowed to call the API from a browser; `*` for any. */
  allowed_origins: z.array(z.union([z.literal('*'), z.url().regex(/^https?:\/\/[^/]+$/, 'scheme and host only, no path')])).default([]),
  /** How long a browser may cache a preflight answer. */
  max_age_seconds: z.number().int().min(0).max(86_400).default(600),
});

/**
 * A request whose client left: the upstream bills what it generates whether or not anyone reads it, so
 * the gateway reads on until the upstream reports its usage, within these bounds; past either the upstream
 * is cut and the request charged its worst case.
 */
const abandonedStreamsSchema = z.strictObject({
  drain_seconds: z.number().min(0).max(3_600).default(120),
  /** Bytes of answer read for nobody. */
  drain_bytes: z.number().int().min(0).max(1024 * 1024 * 1024).default(16 * 1024 * 1024),
});

/** The usage ledger: when a request's row reaches the database, and how long a request whose client left is read on. */
const ledgerSchema = z.strictObject({
  /**
   * `batch`: rows are queued and written about once a second, off the request path (a `kill -9` loses the
   * last second's). `sync`: a request's row is committed before the last byte of its answer is sent.
   */
  durability: z.enum(['batch', 'sync']).default('batch'),
  /** `sync`: longest an answer waits for its row's commit; after it the row is queued as in `batch`. */
  sync_timeout_ms: milliseconds(60_000).default(2_000),
  /**
   * Rows older than this many days are deleted, in small batches off the request path; the hourly rollups
   * that reports read stay. Absent: every row is kept.
   */
  retention_days: z.number().positive().max(36_500).optional(),
  abandoned_streams: abandonedStreamsSchema.default(() => abandonedStreamsSchema.parse({})),
});

/**
 * Where stored bytes live (`files.storage`, `images.storage`): `database` in the store (chunks of 1 MiB),
 * which every instance on one PostgreSQL shares; `disk` in a directory under `GATEWAY_DATA_DIR`, which
 * several instances must share as a volume; `auto` (default) the store on PostgreSQL, the disk on SQLite
 * (server/files/choose-file-storage.ts decides for both).
 */
const byteStorageSchema = z.enum(['auto', 'disk', 'database']).default('auto');

/** Images handed out as `url`: files served at `/v1/images/files/…` until they expire. */
const imageFilesSchema = z.strictObject({
  /** Where the images live: the store or `<GATEWAY_DATA_DIR>/images` (server/image-files/choose-image-storage.ts). */
  storage: byteStorageSchema,
  /** How long an image URL works. */
  url_ttl_seconds: z.number().int().min(1).max(7 * 86_400).default(3_600),
  /** How often expired image files are deleted from storage. */
  sweep_interval_seconds: z.number().int().min(1).max(86_400).default(300),
});

/**
 * OpenAI Files (`/v1/files`): uploads kept for batches, and the files batches write. The metadata is in the
 * store; the bytes are where `storage` says (server/files/choose-file-storage.ts).
 */
const filesSchema = z.strictObject({
  /** Where the bytes live: the store or `<GATEWAY_DATA_DIR>/files`. */
  storage: byteStorageSchema,
  /**
   * The largest upload, in bytes: past it the upload is a 413 and nothing is kept. 200 MiB by default,
   * OpenAI's limit for batch input (its limit for other purposes is 512 MB).
   */
  max_bytes: z.number().int().min(1).max(8 * 1024 * 1024 * 1024).default(200 * 1024 * 1024),
  /** How often expired files are deleted from storage. */
  sweep_interval_seconds: z.number().int().min(1).max(86_400).default(600),
});

/**
 * Prometheus metrics, off by default (then nothing is collected). On, they are served at `GET /metrics` on
 * the gateway's port to the admin key, or with `port` on their own server at 127.0.0.1:<port> without a key
 * (and not on the gateway's port).
 */
const metricsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  port: z.number().int().min(1).max(65_535).optional(),
});

const mebibytes = 1024 * 1024;

/**
 * Fetches the gateway makes for users: image URLs it inlines for upstreams that take only data (see
 * outbound/fetch-user-url.ts). Loopback, private, link-local and metadata addresses are refused unless listed
 * in `allow`. Defaults are documented in the README.
 */
const outboundSchema = z.strictObject({
  /** Hostnames, IP addresses or CIDR ranges that may be reached even though they are not public. */
  allow: z
    .array(
      z.string().superRefine((entry, ctx) => {
        const problem = allowEntryProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    )
    .default([]),
  /** Largest body fetched, by `content-length` and by the bytes actually read. */
  max_bytes: z.number().int().min(1).max(100 * mebibytes).default(10 * mebibytes),
  /** The whole fetch, redirects and body included. */
  timeout_ms: milliseconds(120_000).default(10_000),
  max_redirects: z.number().int().min(0).max(10).default(3),
  /** URLs fetched for one request (each at most `max_bytes`, held in memory until the upstream call). */
  max_urls_per_request: z.number().int().min(1).max(100).default(16),
});

/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured here or by the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (observability/tracing/).
 */
const telemetrySchema = z.strictObject({
  /** The collector's OTLP/HTTP base URL (`http://localhost:4318`); spans go to `<it>/v1/traces`. Wins over the environment. */
  otlp_endpoint: z.url().optional(),
  /** `service.name` of the spans; else `OTEL_SERVICE_NAME`, else `unified-model-api`. */
  service_name: z.string().min(1).optional(),
  /** Records prompts and completions (truncated) on the spans. Off: they can hold personal data. */
  capture_content: z.boolean().default(false),
});

export const configSchema = z
  .strictObject({
    /**
     * The gateway's address as clients reach it (`https://ai.example.com`, no `/v1`), for links it hands
     * out such as image URLs. Without it they are built from the request's `Host`.
     */
    public_base_url: z.url().optional(),
    images: imageFilesSchema.default(() => imageFilesSchema.parse({})),
    files: filesSchema.default(() => filesSchema.parse({})),
    providers: z.array(providerSchema).default([]),
    models: z.array(modelSchema).default([]),
    routing: routingSchema.default(() => routingSchema.parse({})),
    responses: responsesSchema.default(() => responsesSchema.parse({})),
    batches: batchesSchema.default(() => batchesSchema.parse({})),
    limits: limitsSchema.default(() => limitsSchema.parse({})),
    cors: corsSchema.default(() => corsSchema.parse({})),
    outbound: outboundSchema.default(() => outboundSchema.parse({})),
    ledger: ledgerSchema.default(() => ledgerSchema.parse({})),
    telemetry: telemetrySchema.default(() => telemetrySchema.parse({})),
    metrics: metricsSchema.default(() => metricsSchema.parse({})),
    /**
     * Price catalog files of the operator's own (YAML or JSON, in the form of catalog/models/*.yaml), read
     * after the built-in catalog: an entry for the same provider type and model replaces the built-in one.
     */
    pricing_catalogs: z.array(z.string().min(1)).default([]),
  })
  .superRefine((config, ctx) => {
    const providerIds = new Set<string>();
    config.providers.forEach((provider, index) => {
      if (providerIds.has(provider.id)) {
        ctx.addIssue({ code: 'custom', path: ['providers', index, 'id'], message: `duplicate provider id '${provider.id}'` });
      }
      providerIds.add(provider.id);
      for (const problem of providerConfigProblems(provider)) {
        ctx.addIssue({ code: 'custom', path: ['providers', index, ...problem.path], message: problem.message });
      }
    });
    const modelIds = new Set<string>();
    config.models.forEach((model, index) => {
      if (modelIds.has(model.id)) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'id'], message: `duplicate model id '${model.id}'` });
      }
      modelIds.add(model.id);
      if ((model.provider === undefined) === (model.deployments === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['models', index], message: 'give either provider or deployments, not both or neither' });
      }
      if (model.deployments && model.upstream_model) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'upstream_model'], message: 'with deployments, set upstream_model per deployment' });
      }
      const references = model.deployments?.map((deployment, d) => ({ id: deployment.provider, path: ['deployments', d, 'provider'] })) ?? [
        { id: model.provider!, path: ['provider'] },
      ];
      const makesImages = model.capabilities?.some((capability) => capability === 'image_generation' || capability === 'image_edit');
      const embeds = model.capabilities?.includes('embeddings');
      for (const reference of references) {
        if (model.provider === undefined && model.deployments === undefined) break;
        const type = config.providers.find((provider) => provider.id === reference.id)?.type;
        if (makesImages && type && !typeServes(type, 'images')) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, ...reference.path],
            message: `provider '${reference.id}' (type ${type}) cannot make images; image models need one of: ${typesServing('images').join(', ')}`,
          });
        }
        if (embeds && type && !typeServes(type, 'embeddings')) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, ...reference.path],
            message: `provider '${reference.id}' (type ${type}) cannot embed text; embedding models need one of: ${typesServing('embeddings').join(', ')}`,
          });
        }
        if (model.batch === 'upstream' && type && !typeServes(type, 'batches')) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, ...reference.path],
            message: `batch: upstream needs a provider with a batch API of its own, and '${reference.id}' (type ${type}) has none; use batch: gateway (the default), or a provider of type ${typesServing('batches').join(', ')}`,
          });
        }
        if (!providerIds.has(reference.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, ...reference.path],
            message: `unknown provider '${reference.id}' (declared: ${[...providerIds].join(', ') || 'none'})`,
          });
        }
      }
    });
    config.models.forEach((model, index) => {
      model.fallbacks.forEach((fallback, f) => {
        if (!modelIds.has(fallback) || fallback === model.id) {
          ctx.addIssue({ code: 'custom', path: ['models', index, 'fallbacks', f], message: `fallback '${fallback}' is not another model id` });
        }
      });
    });
  });

export type GatewayConfig = z.infer<typeof configSchema>;
export type ProviderConfig = GatewayConfig['providers'][number];
export type ModelConfig = GatewayConfig['models'][number];
export type RoutingConfig = GatewayConfig['routing'];
export type ProviderTimeouts = NonNullable<ProviderConfig['timeouts']>;
export type ModelImagesConfig = ModelConfig['images'];
export type ModelPricing = NonNullable<ModelConfig['pricing']>;
export type OutboundConfig = GatewayConfig['outbound'];
export type TelemetryConfig = GatewayConfig['telemetry'];
export type FilesConfig = GatewayConfig['files'];
/** `files.storage` and `images.storage`. */
export type ByteStorageSetting = FilesConfig['storage'];
