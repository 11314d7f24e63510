import type { Request, Response } from 'express';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Usage } from '../../core/internal-representation.js';
import type { RequestContext } from '../../core/request-context.js';
import { priceUsage, type PricedUsage } from '../cost.js';
import { abandonedUsage } from './abandoned-usage.js';
import type { MeteredAnswer, Outcome } from './metered-request.js';
import { estimatePromptTokens } from './estimate-prompt-tokens.js';
import type { MeteredEndpoint } from './metered-endpoint.js';
import { requestedServiceTier, stringField } from './plan-reservation.js';

const noUsage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
const unpriced: Outcome['priced'] = { priceTierAboveTokens: 0, serviceTier: null, batch: false };

/**
 * What the request used, from the route that served it (describeRoute) and the answer the routed call
 * began (meter-answers.ts), if one did.
 *
 * @param charge.completed whether the client got the whole answer (else it left first: see abandoned-usage.ts)
 * @param charge.defaultOutputTokens `limits.default_output_tokens`, the worst case of a request without an output cap
 */
export function outcomeOf(
  req: Request,
  res: Response,
  context: RequestContext,
  answer: MeteredAnswer | undefined,
  endpoint: MeteredEndpoint,
  registry: ModelRegistry,
  { completed, defaultOutputTokens }: { completed: boolean; defaultOutputTokens: number },
): Outcome {
  const { route } = context;
  // An answer that was served without a usage report (an upstream stream that sent none) gets an
  // estimate of its prompt, marked as such, rather than a silent zero.
  const served = route !== undefined && res.statusCode < 400;
  const model = route?.model ?? endpoint.requestedModel ?? null;
  const deployment = route?.deployment ?? null;
  if (!endpoint.consumesTokens) return { model, deployment, usage: noUsage, imageCount: 0, costUsd: 0, priced: unpriced };
  // A stream's usage is read live: a stream cut short has what it reported so far.
  const reportedUsage = answer?.usage();
  const counted = completed ? undefined : abandonedUsage(req.body, endpoint, context, answer, reportedUsage, defaultOutputTokens);
  const known = counted ?? reportedUsage;
  const usage = known ?? (served ? { ...noUsage, inputTokens: estimatePromptTokens(req.body), estimated: true } : noUsage);
  const imageCount = answer?.imageCount() ?? 0;
  const pricing = model === null ? undefined : registry.find(model)?.pricing;
  const { costUsd, ...priced } = priceUsage(usage, pricing, {
    imageCount,
    image: { size: stringField(req.body, 'size'), quality: stringField(req.body, 'quality') },
    requestedServiceTier: requestedServiceTier(req.body),
  });
  return { model, deployment, usage, imageCount, costUsd, priced };
}
