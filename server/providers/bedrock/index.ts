/**
 * AWS Bedrock (`type: bedrock`): the ConverseStream API, `POST /model/<modelId>/converse-stream` on
 * `https://bedrock-runtime.<region>.amazonaws.com`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html), signed with
 * SigV4 (sign-request.ts). Translated requests always stream; non-streamed answers are this stream
 * collected. The answer is AWS's binary event stream (read-event-stream.ts), not SSE.
 *
 * Embeddings: Amazon Titan Text Embeddings V2 through InvokeModel (invoke-titan-embeddings.ts).
 *
 * No pass-through: no client protocol speaks Converse. `upstream_model` is a model ID, an inference profile
 * ID or an ARN; it is URL-encoded into the path.
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import type { ProviderDefinition } from '../provider-definition.js';
import type { CallContext, Provider } from '../provider.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { convertRequestToBedrock } from './convert-request.js';
import { convertBedrockStream } from './convert-stream.js';
import { resolveBedrockSettings } from './credentials.js';
import { readBedrockError } from './read-error.js';
import { readEventStream } from './read-event-stream.js';
import { titanEmbeddings } from './invoke-titan-embeddings.js';
import { createBedrockSigner } from './sign-request.js';

/** The ConverseStream path of a model; slashes and colons of an ARN are escaped, as the AWS SDK does. */
export function converseStreamPath(upstreamModel: string): string {
  return `/model/${encodeURIComponent(upstreamModel)}/converse-stream`;
}

/**
 * Creates a Bedrock provider with its own connection pool; region and credentials come from the config or
 * the AWS environment variables (credentials.ts), read once here.
 *
 * @example
 * const provider = createBedrockProvider({ id: 'aws', type: 'bedrock', region: 'us-east-1' });
 * for await (const event of provider.stream(request, { upstreamModel: 'us.anthropic.claude-sonnet-4-20250514-v1:0', signal })) console.log(event);
 */
export function createBedrockProvider(config: ProviderConfig): Provider {
  const settings = resolveBedrockSettings(config);
  const baseUrl = (config.base_url ?? `https://bedrock-runtime.${settings.region}.amazonaws.com`).replace(/\/+$/, '');
  const client = new UpstreamClient(config, baseUrl, { readError: readBedrockError, headers: {} });
  const sign = createBedrockSigner(settings);
  return {
    type: 'bedrock',
    id: config.id,
    close: () => client.close(),
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      const body = convertRequestToBedrock(request, context.upstreamModel);
      const path = converseStreamPath(context.upstreamModel);
      // Signed over the exact text postJson sends (JSON.stringify is deterministic for the same object).
      const headers = await sign(new URL(`${baseUrl}${path}`), JSON.stringify(body), { 'content-type': 'application/json' });
      const reply = await client.postJson(path, body, context.signal, headers);
      yield* convertBedrockStream(readEventStream(client.chunks(reply, context.signal), config.id), config.id);
    },
    embeddings: titanEmbeddings(client, config.id, baseUrl, sign),
  };
}

/**
 * What Converse offers across its model families: chat, streaming, tools and images. No `json_schema`:
 * Converse has no JSON mode (a config may still claim it per model, and then gets a clear 400). Bedrock's
 * image models are not served through Converse; Titan Text Embeddings answers InvokeModel (invoke-titan-embeddings.ts).
 * Converse takes images only as bytes, so image URLs are always fetched for it.
 */
export const bedrockProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision'],
  tokenLimits: { input: 200_000, output: 64_000 },
  inlinesImageUrls: true,
  genAiName: 'aws.bedrock',
  create: createBedrockProvider,
};
