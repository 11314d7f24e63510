import OpenAI from 'openai';
import type { GatewayConfig, ProviderType } from '../../server/config/config-schema.js';
import { configSchema } from '../../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { startGateway, type TestGateway } from './start-gateway.js';

/** The key the gateway holds for the fake upstream: it must reach the upstream and never a client. */
export const upstreamKey = 'sk-upstream-secret-0123456789';
export const upstreamModel = 'upstream-model-x';

/** Base URLs follow each provider's SDK convention: OpenAI's includes `/v1`, the others' do not. */
export function baseUrlFor(type: ProviderType, origin: string): string {
  return type === 'openai' || type === 'openai-compatible' ? `${origin}/v1` : origin;
}

export interface UpstreamGateway {
  gateway: TestGateway;
  upstream: FakeUpstream;
  /** The official SDK pointed at the gateway, retries off so every upstream call is the test's. */
  openai: OpenAI;
  close(): Promise<void>;
}

/**
 * A fake upstream of the given type and a real gateway whose model `test-model` is served by it.
 * `config` adds to or overrides the generated config (extra providers, models, routing).
 */
export async function startUpstreamGateway(
  type: ProviderType,
  extra: { model?: Record<string, unknown>; provider?: Record<string, unknown>; config?: Record<string, unknown> } = {},
): Promise<UpstreamGateway> {
  const upstream = await startFakeUpstream();
  const config: GatewayConfig = configSchema.parse({
    providers: [{ id: 'fake', type, base_url: baseUrlFor(type, upstream.origin), api_key: upstreamKey, ...extra.provider }],
    models: [{ id: 'test-model', provider: 'fake', upstream_model: upstreamModel, ...extra.model }],
    ...extra.config,
  });
  const gateway = await startGateway({ config });
  const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  return {
    gateway,
    upstream,
    openai,
    async close() {
      await gateway.close();
      await upstream.close();
    },
  };
}

/** A 1×1 transparent PNG as a data URL. */
export const tinyPng =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
