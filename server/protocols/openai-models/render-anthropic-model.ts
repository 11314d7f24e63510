import type { components } from '../../../generated/api.js';
import type { RegisteredModel } from '../../core/model-registry.js';

type AnthropicModel = components['schemas']['AnthropicModel'];
type AnthropicModelList = components['schemas']['AnthropicModelList'];

export interface AnthropicPageQuery {
  limit: number;
  afterId?: string;
  beforeId?: string;
}

/** A registered model as the Anthropic SDK's `models.retrieve` returns it. */
export function renderAnthropicModel(model: RegisteredModel): AnthropicModel {
  return { id: model.id, type: 'model', display_name: model.id, created_at: new Date(model.created * 1000).toISOString() };
}

/**
 * One page in Anthropic's cursor style (https://docs.anthropic.com/en/api/models-list): `after_id` pages
 * forward, `before_id` backward, `limit` per page. An unknown cursor gives an empty page, as a cursor past
 * the end would.
 */
export function renderAnthropicModelPage(models: readonly RegisteredModel[], query: AnthropicPageQuery): AnthropicModelList {
  const indexOf = (id: string) => models.findIndex((model) => model.id === id);
  let start = 0;
  let end = models.length;
  if (query.afterId !== undefined) start = indexOf(query.afterId) === -1 ? models.length : indexOf(query.afterId) + 1;
  if (query.beforeId !== undefined) end = Math.max(0, indexOf(query.beforeId));
  const window = models.slice(start, end);
  // Paging backward keeps the models nearest the cursor.
  const page = query.beforeId !== undefined && query.afterId === undefined ? window.slice(-query.limit) : window.slice(0, query.limit);
  const data = page.map(renderAnthropicModel);
  return {
    data,
    has_more: page.length < window.length,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}
