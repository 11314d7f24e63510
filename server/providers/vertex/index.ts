/**
 * Google Vertex AI (`type: vertex`): Gemini models (`publisher: google`, the default) through
 * generateContent/streamGenerateContent, or Claude models (`publisher: anthropic`) through
 * rawPredict/streamRawPredict, at `…/v1/projects/<project>/locations/<location>/publishers/<publisher>/models/<model>`.
 * Calls carry an OAuth2 access token of the service account in the key file (access-tokens.ts).
 *
 * One provider serves one publisher because pass-throughs belong to a provider: a Gemini client's body can
 * be forwarded to a Gemini model, never to Claude. Declare two providers (same key file) to serve both.
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import type { Provider } from '../provider.js';
import type { ProviderDefinition } from '../provider-definition.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { vertexAccessTokens } from './access-tokens.js';
import { claudeOnVertex } from './claude-on-vertex.js';
import { geminiOnVertex } from './gemini-on-vertex.js';
import { readVertexError } from './read-error.js';
import { readServiceAccountKey } from './service-account.js';
import { vertexBaseUrl } from './vertex-routes.js';

export const defaultVertexLocation = 'us-central1';

/**
 * Creates a Vertex provider with its own connection pool and token cache. Reads the key file now (start-up).
 *
 * @example
 * const provider = createVertexProvider({ id: 'vertex', type: 'vertex', credentials_file: '/etc/gateway/sa.json', location: 'europe-west4' });
 */
export function createVertexProvider(config: ProviderConfig): Provider {
  const key = readServiceAccountKey(config);
  const project = config.project ?? key.projectId;
  if (!project) throw new Error(`provider '${config.id}' (vertex): no project: set project, or use a key file with project_id`);
  const location = config.location ?? defaultVertexLocation;
  const client = new UpstreamClient(config, vertexBaseUrl(location), {
    readError: readVertexError,
    headers: {},
    authorize: vertexAccessTokens(config.id, key),
  });
  return config.publisher === 'anthropic' ? claudeOnVertex(client, config.id, project, location) : geminiOnVertex(client, config.id, project, location);
}

/**
 * Vertex's Gemini and Claude models all take tools, images and JSON schemas; `reasoning` is opt-in per model.
 * Google's embedding models answer `predict` (publisher google); its Imagen models are not served here.
 */
export const vertexProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  tokenLimits: { input: 1_048_576, output: 65_536 },
  inlinesImageUrls: false,
  genAiName: 'gcp.vertex_ai',
  create: createVertexProvider,
};
