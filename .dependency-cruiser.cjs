/**
 * Which server modules may import which: `npm run lint:deps` (dependency-cruiser) checks these rules in CI.
 * Type imports count as imports (tsPreCompilationDeps), because a circle of types is a circle a reader has
 * to follow all the same. Test files are not checked: a test may reach into any module it tests.
 *
 * The layers, top to bottom; a layer imports the ones below it, never one above:
 *
 *   main.ts, app.ts, create-handlers.ts   the wiring: builds the server from everything below
 *   http/                        the HTTP server: front door, middleware, writing answers and errors
 *   protocols/                   the client protocols' handlers (Chat Completions, Messages, Responses, …)
 *   management/                  beside protocols/: the gateway's own API (admin, account, usage, operations)
 *   core/                        the model call: resolve, route, attempt, emit
 *   providers/                   one folder per upstream type, translating core's requests to its API
 *   providers/upstream/          the HTTP client every provider shares
 *
 * core/ holds two things: the pipeline (model registry, router, model call, …; listed in `corePipeline`
 * below) and the vocabulary every layer speaks (internal-representation.ts, gateway-error.ts, stream frames, small helpers).
 * Providers import the vocabulary, never the pipeline, which imports them.
 *
 * At the sides stand the modules the layers use, each with one concern: access (who may do what), limits,
 * usage (the ledger, its reports and usage/metering/), store (the database), observability (metrics, tracing), config (the config
 * file's schema and loading), outbound (fetches made for users), keys, image-files, logging, streaming (writing
 * a streamed HTTP response with backpressure, for the http layer's writers and the usage export alike). The side rules:
 *
 *   - Any layer may import a side module; a side module may import core (its vocabulary, the model registry)
 *     and other sides, but never http/, protocols/ or management/: they are what sits on top, and a side that needed them
 *     would tie every layer below to the HTTP server.
 *   - config/ is at the bottom: everything reads the config, so the config imports nothing of the server
 *     but the provider types' config entries (providers/provider-config-rules.ts and the
 *     providers/<type>/config-keys.ts it gathers, which load no provider code) and outbound/address-policy.ts
 *     (the syntax of `outbound.allow`). Code it calls back (the model registry, in-flight requests) is
 *     described by the few methods it uses, not imported.
 *   - store/ is next: it imports config, the permissions and limits it stores (access/access-types.ts) and
 *     key hashing (keys/key-secret.ts), nothing else; what reads the database (usage, keys, access) imports it.
 *
 * And two rules for everything: no import circles, and generated/ (npm run generate) imports no server code.
 *
 * There is no baseline of known violations: CI fails on any.
 */

const corePipeline =
  '^server/core/(model-registry|router|deployment-health|pick-deployment|rendezvous-order|route-call|model-call|embeddings-operation|count-tokens-operation|count-input-tokens|start-translated-answer|gate-capabilities|dropped-params)[.]ts$';
const wiring = '^server/(main|app|create-handlers)[.]ts$';

/** The modules the config's schema reads about provider types: zod schemas and rules, no provider code. */
const providerConfigEntries = '^server/providers/(provider-config-rules|[^/]+/config-keys)[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (types included) makes modules that can only be read, loaded and changed together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'http-only-from-the-wiring',
      comment: 'http/ is the top layer: only the wiring (main.ts, app.ts) builds on it; no layer below and no side module imports it.',
      severity: 'error',
      from: { pathNot: ['^server/http/', '^server/(main|app)[.]ts$'] },
      to: { path: '^server/http/' },
    },
    {
      name: 'protocols-only-from-above',
      comment: 'protocols/ and management/ are imported by http/ and the wiring only: nothing below (core, providers) or at the sides knows the client protocols.',
      severity: 'error',
      from: { pathNot: ['^server/(http|protocols|management)/', wiring] },
      to: { path: '^server/(protocols|management)/' },
    },
    {
      name: 'wiring-only-from-the-wiring',
      comment: 'main.ts, app.ts and create-handlers.ts build the server; nothing they build imports them.',
      severity: 'error',
      from: { pathNot: wiring },
      to: { path: wiring },
    },
    {
      name: 'providers-below-the-pipeline',
      comment: "Providers speak core's vocabulary (internal-representation.ts, gateway-error.ts, …) and are called by its pipeline; they never import the pipeline.",
      severity: 'error',
      from: { path: '^server/providers/' },
      to: { path: corePipeline },
    },
    {
      name: 'upstream-below-providers',
      comment: 'providers/upstream/ is the HTTP client every provider shares; it knows no provider type.',
      severity: 'error',
      from: { path: '^server/providers/upstream/' },
      to: { path: '^server/providers/', pathNot: '^server/providers/upstream/' },
    },
    {
      name: 'config-at-the-bottom',
      comment: "Everything reads the config, so it imports nothing of the server but the provider types' config entries and the outbound allow-list's syntax.",
      severity: 'error',
      from: { path: '^server/config/' },
      to: { path: '^server/', pathNot: ['^server/config/', providerConfigEntries, '^server/outbound/address-policy[.]ts$', '^server/project-root[.]ts$'] },
    },
    {
      name: 'provider-config-entries-load-no-provider',
      comment: "The config's schema reads these; were they to import provider code, which reads the parsed config, the two would form a circle.",
      severity: 'error',
      from: { path: providerConfigEntries },
      to: { path: '^server/', pathNot: ['^server/config/provider-entry[.]ts$', providerConfigEntries] },
    },
    {
      name: 'store-below-the-other-sides',
      comment: 'The database is read by usage, keys and access; it imports only config, the permissions and limits it stores, and key hashing.',
      severity: 'error',
      from: { path: '^server/store/' },
      to: {
        path: '^server/',
        pathNot: ['^server/store/', '^server/config/', '^server/access/access-types[.]ts$', '^server/keys/key-secret[.]ts$', '^server/project-root[.]ts$'],
      },
    },
    {
      name: 'generated-imports-no-server-code',
      comment: 'generated/ is written from the spec (npm run generate); the server builds on it, never the reverse.',
      severity: 'error',
      from: { path: '^generated/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$' },
  },
};
