import type { AccessPolicy } from '../../access/access-policy.js';
import type { ModelCapability } from '../../config/config-schema.js';
import type { ModelRegistry, RegisteredModel } from '../../core/model-registry.js';
import { randomString } from '../../core/random-string.js';
import type { NewUpstreamBatch } from '../batch-types.js';

type Line = { customId: string; endpoint: string; body: string };

/** The batch's lines, each forwarded (`upstreamBatchId`) or not, and the upstream batches they go to. */
export interface ForwardingPlan {
  lines: Array<Line & { upstreamBatchId?: string }>;
  upstreamBatches: NewUpstreamBatch[];
}

/**
 * Decides at submission which lines of a batch go to an upstream's own batch API: those whose model has
 * `batch: upstream`, that the key may send as they are, and that a deployment of the model takes in the
 * client's own protocol (OpenAI lines to an OpenAI-shaped upstream, Anthropic lines to Anthropic; no
 * translation). Each (model, deployment) gets one upstream batch; the deployment is chosen once per model, by
 * weight. Every other line (another model, another protocol, a key the request would be refused or narrowed
 * for) runs in the gateway as before, where it meets the same checks, limits and errors as a client's request.
 *
 * One planner plans one batch, in one call (Anthropic's lines, from one request body) or piece by piece
 * (OpenAI's, streamed from its input file): each call answers that piece's lines and only the upstream
 * batches first used in it, so every upstream batch is stored with the first piece of lines it takes.
 */
export function forwardingPlanner(protocol: string, access: AccessPolicy, registry: ModelRegistry): (lines: readonly Line[]) => ForwardingPlan {
  const chosen = new Map<string, NewUpstreamBatch | null>();
  // Permissions that narrow what a body may ask (an output ceiling, cost options) are applied by the gateway's
  // own call; a forwarded line would escape them, so such a key's lines are never forwarded.
  const narrowed = access.narrowsRequests();
  return (lines) => {
    const upstreamBatches: NewUpstreamBatch[] = [];
    const planned = lines.map((line) => {
      const body = JSON.parse(line.body) as Record<string, unknown>;
      const modelId = typeof body.model === 'string' ? body.model : undefined;
      const model = modelId === undefined ? undefined : registry.find(modelId);
      if (!model || model.batch !== 'upstream' || narrowed || !access.permitsModel(model.id)) return line;
      if (!capabilitiesAskedFor(line.endpoint, body).every((capability) => model.capabilities.includes(capability))) return line;
      const key = `${model.id}\n${line.endpoint}`;
      if (!chosen.has(key)) {
        const upstream = choose(model, protocol, line.endpoint);
        chosen.set(key, upstream);
        if (upstream) upstreamBatches.push(upstream);
      }
      const upstream = chosen.get(key);
      return upstream ? { ...line, upstreamBatchId: upstream.id } : line;
    });
    return { lines: planned, upstreamBatches };
  };
}

/** An upstream batch on a deployment of the model that batches this protocol's lines to this endpoint, by weight; null when none does. */
function choose(model: RegisteredModel, protocol: string, endpoint: string): NewUpstreamBatch | null {
  const able = model.deployments.filter((deployment) => deployment.provider.batches?.protocol === protocol && deployment.provider.batches.endpoints.includes(endpoint));
  if (able.length === 0) return null;
  const total = able.reduce((sum, deployment) => sum + deployment.weight, 0);
  let pick = Math.random() * total;
  const deployment = able.find((each) => (pick -= each.weight) < 0) ?? able.at(-1)!;
  return { id: `ubatch_${randomString(12)}`, model: model.id, providerId: deployment.provider.id, upstreamModel: deployment.upstreamModel, endpoint };
}

/**
 * What the line asks of its model, read from its body as the gateway's capability gate would: a line asking
 * for something the model does not offer runs in the gateway, which drops or refuses it as it would for a client.
 */
function capabilitiesAskedFor(endpoint: string, body: Record<string, unknown>): ModelCapability[] {
  if (endpoint === '/v1/embeddings') return ['embeddings'];
  const asked: ModelCapability[] = ['chat'];
  if (Array.isArray(body.tools) && body.tools.length > 0) asked.push('tools');
  const format = body.response_format as { type?: unknown } | undefined;
  if (format?.type === 'json_schema' || body.output_format !== undefined) asked.push('json_schema');
  if (body.reasoning_effort !== undefined || body.thinking !== undefined) asked.push('reasoning');
  if (/"type":"(image_url|image|input_image)"/.test(JSON.stringify(body.messages ?? []))) asked.push('vision');
  return asked;
}
