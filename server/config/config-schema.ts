import { z } from 'zod';

/**
 * The gateway configuration file (`gateway.yaml`). Key names are part of the public contract: later
 * features extend this schema, never rename its keys. Objects are strict so a misspelt key is reported
 * at start-up instead of silently ignored.
 */

export const providerTypes = ['openai', 'anthropic', 'gemini', 'openai-compatible', 'builtin'] as const;
export type ProviderType = (typeof providerTypes)[number];

export const modelCapabilities = [
  'chat',
  'streaming',
  'tools',
  'vision',
  'json_schema',
  'reasoning',
  'image_generation',
  'image_edit',
] as const;
export type ModelCapability = (typeof modelCapabilities)[number];

const providerSchema = z.strictObject({
  id: z.string().min(1),
  type: z.enum(providerTypes),
  /** Same convention as the provider's official SDK base URL (OpenAI's includes `/v1`). */
  base_url: z.url().optional(),
  api_key: z.string().min(1).optional(),
  /** Built-in provider only: pause between streamed chunks, to look like a real model in a UI. */
  chunk_delay_ms: z.number().int().min(0).max(10_000).optional(),
});

const modelSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[A-Za-z0-9._:\-/@]+$/, 'letters, digits and . _ : - / @ only'),
  provider: z.string().min(1),
  upstream_model: z.string().min(1).optional(),
  capabilities: z.array(z.enum(modelCapabilities)).default(['chat', 'streaming']),
  /** Unix seconds reported as `created` in the model list. */
  created: z.number().int().min(0).optional(),
});

export const configSchema = z
  .strictObject({
    providers: z.array(providerSchema).default([]),
    models: z.array(modelSchema).default([]),
  })
  .superRefine((config, ctx) => {
    const providerIds = new Set<string>();
    config.providers.forEach((provider, index) => {
      if (providerIds.has(provider.id)) {
        ctx.addIssue({ code: 'custom', path: ['providers', index, 'id'], message: `duplicate provider id '${provider.id}'` });
      }
      providerIds.add(provider.id);
    });
    const modelIds = new Set<string>();
    config.models.forEach((model, index) => {
      if (modelIds.has(model.id)) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'id'], message: `duplicate model id '${model.id}'` });
      }
      modelIds.add(model.id);
      if (!providerIds.has(model.provider)) {
        ctx.addIssue({
          code: 'custom',
          path: ['models', index, 'provider'],
          message: `unknown provider '${model.provider}' (declared: ${[...providerIds].join(', ') || 'none'})`,
        });
      }
    });
  });

export type GatewayConfig = z.infer<typeof configSchema>;
export type ProviderConfig = GatewayConfig['providers'][number];
export type ModelConfig = GatewayConfig['models'][number];
