/**
 * The gateway config the bench runs: one OpenAI provider pointing at the fake upstream, a chat model and
 * an image model (see gateway.example.yaml and server/config/config-schema.ts for the keys); the usage
 * ledger's `durability` when one is given (`npm run bench:ledger`), else the default. `BENCH_METRICS=1`
 * turns Prometheus metrics on (`metrics.enabled`), to measure what they cost.
 */
export function benchGatewayConfig(upstreamPort: number, ledgerDurability?: 'batch' | 'sync'): string {
  const ledger = ledgerDurability ? `ledger: { durability: ${ledgerDurability} }\n` : '';
  const metrics = process.env.BENCH_METRICS === '1' ? 'metrics: { enabled: true }\n' : '';
  return `${ledger}${metrics}providers:
  - id: up
    type: openai
    base_url: http://127.0.0.1:${upstreamPort}/v1
    api_key: x
models:
  - id: bench-chat
    provider: up
    upstream_model: bench-chat
    capabilities: [chat, streaming]
  - id: bench-image
    provider: up
    upstream_model: bench-image
    capabilities: [image_generation]
    images: { default_response_format: b64_json }
`;
}
