import type { RegisteredModel } from '../../core/model-registry.js';
import { GatewayError } from '../../core/gateway-error.js';
import { describeModel, providerDefinition } from '../../providers/registry.js';
import type { GeminiModel, GeminiModelList } from './wire-types.js';

/**
 * A registered model in the Gemini Model shape (https://ai.google.dev/api/models#Model): `name` is
 * `models/` plus the gateway ID, which is what the SDKs strip and send back.
 *
 * @example renderGeminiModel(registry.resolve('builtin/echo')).name // 'models/builtin/echo'
 */
export function renderGeminiModel(model: RegisteredModel): GeminiModel {
  // The model's own limits (its config's, else the price catalog's); where neither says, the provider type's
  // nominal ones (clients only budget with them).
  const nominal = providerDefinition(model.ownedBy).tokenLimits;
  const limits = { input: model.contextWindow ?? nominal.input, output: model.maxOutputTokens ?? nominal.output };
  const chats = model.capabilities.includes('chat');
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '1',
    displayName: model.id,
    description: describeModel(model.ownedBy, chats ? 'chat' : 'image'),
    inputTokenLimit: limits.input,
    outputTokenLimit: limits.output,
    supportedGenerationMethods: generationMethods(model),
    ...(model.capabilities.includes('reasoning') && { thinking: true }),
  };
}

/**
 * What the model answers here. An embedding model is listed the way Google lists gemini-embedding-001; an
 * image-only model the way it lists Imagen: it answers no generateContent here.
 */
function generationMethods(model: RegisteredModel): string[] {
  const chat = model.capabilities.includes('chat')
    ? ['generateContent', ...(model.capabilities.includes('streaming') ? ['streamGenerateContent'] : []), 'countTokens']
    : [];
  const embed = model.capabilities.includes('embeddings') ? ['embedContent', 'batchEmbedContents'] : [];
  return chat.length + embed.length > 0 ? [...chat, ...embed] : ['predict'];
}

/**
 * One page of the Gemini model list. `nextPageToken` is the last ID of the page (base64url), so pages
 * stay right whatever page size the next call asks for; it is absent on the last page.
 */
export function renderGeminiModelPage(models: readonly RegisteredModel[], page: { pageSize: number; pageToken?: string }): GeminiModelList {
  const start = page.pageToken ? startAfter(models, page.pageToken) : 0;
  const slice = models.slice(start, start + page.pageSize);
  const more = start + slice.length < models.length;
  return {
    models: slice.map(renderGeminiModel),
    ...(more && { nextPageToken: Buffer.from(slice.at(-1)!.id, 'utf8').toString('base64url') }),
  };
}

function startAfter(models: readonly RegisteredModel[], token: string): number {
  const id = Buffer.from(token, 'base64url').toString('utf8');
  const index = models.findIndex((model) => model.id === id);
  if (index === -1) throw new GatewayError('invalid_request', 'Invalid pageToken: pass the nextPageToken of the previous page.', { param: 'pageToken' });
  return index + 1;
}
