import type { MessagesRoute } from '../anthropic/forward-messages.js';
import type { GeminiRoute } from '../gemini/forward-generate.js';

/**
 * The regional endpoint (`https://us-central1-aiplatform.googleapis.com`), or the global one for location
 * `global` (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations).
 */
export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/**
 * `/v1/projects/<project>/locations/<location>/publishers/<publisher>/models/<model>:<method>`. The `@` of
 * versioned Claude IDs (`claude-sonnet-4-5@20250929`) stays as Google's own samples write it.
 */
export function vertexModelPath(project: string, location: string, publisher: 'google' | 'anthropic', model: string, method: string): string {
  const modelSegment = encodeURIComponent(model).replaceAll('%40', '@');
  return `/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/${publisher}/models/${modelSegment}:${method}`;
}

/**
 * Gemini on Vertex (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent):
 * the Gemini API's body, with the model only in the path (Vertex's request has no `model` field).
 */
export function vertexGeminiRoute(project: string, location: string): GeminiRoute {
  return {
    path: (model, method) => {
      const path = vertexModelPath(project, location, 'google', model, method);
      return method === 'streamGenerateContent' ? `${path}?alt=sse` : path;
    },
    body: ({ model: _model, ...body }) => body,
  };
}

/** The Messages API version Claude on Vertex takes, in the body instead of the `anthropic-version` header. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/**
 * Claude on Vertex (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude):
 * the Messages body without `model` (it is in the path) and with `anthropic_version`, to `:rawPredict`, or
 * `:streamRawPredict` when it streams.
 */
export function vertexAnthropicRoute(project: string, location: string): MessagesRoute {
  return {
    path: (model, stream) => vertexModelPath(project, location, 'anthropic', model, stream ? 'streamRawPredict' : 'rawPredict'),
    body: ({ model: _model, ...body }) => ({ ...body, anthropic_version: vertexAnthropicVersion }),
  };
}
