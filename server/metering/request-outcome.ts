import type { Request, Response } from 'express';
import type { ModelRegistry } from '../core/model-registry.js';
import type { Usage } from '../core/types.js';
import type { RequestContext, StreamedSoFar } from '../core/request-context.js';
import { costOf } from '../usage/cost.js';
import { estimatePromptTokens, estimateTokensOfCharacters } from './estimate-prompt-tokens.js';
import type { MeteredEndpoint } from './metered-endpoint.js';
import { requestedServiceTier } from './plan-reservation.js';

/** What a model request used, once its response is over: what its ledger row says and its limits settle to. */
export interface Outcome {
  model: string | null;
  deployment: string | null;
  usage: Usage;
  imageCount: number;
  costUsd: number;
}

const noUsage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

/**
 * What the handler left in the request context (see describeRoute and the handlers' `usage`).
 *
 * @param completed whether the client got the whole answer (else it left first: see {@link deliveredUsage})
 */
export function outcomeOf(req: Request, res: Response, context: RequestContext, endpoint: MeteredEndpoint, registry: ModelRegistry, completed: boolean): Outcome {
  const { route } = context;
  // An answer that was served without a usage report (an upstream stream that sent none) gets an
  // estimate of its prompt, marked as such, rather than a silent zero.
  const served = route !== undefined && res.statusCode < 400;
  const model = route?.model ?? endpoint.requestedModel ?? null;
  const deployment = route?.deployment ?? null;
  if (!endpoint.consumesTokens) return { model, deployment, usage: noUsage, imageCount: 0, costUsd: 0 };
  // A stream the client left is still running when this is asked: what it has reported so far is live.
  const reportedUsage = context.usage ?? context.streamed?.usage();
  const counted = completed || !context.streamed ? undefined : deliveredUsage(req.body, reportedUsage, context.streamed);
  const known = counted ?? reportedUsage;
  const usage = known ?? (served ? { ...noUsage, inputTokens: estimatePromptTokens(req.body), estimated: true } : noUsage);
  const imageCount = context.imageCount ?? 0;
  const pricing = model === null ? undefined : registry.find(model)?.pricing;
  return { model, deployment, usage, imageCount, costUsd: costOf(usage, pricing, imageCount, requestedServiceTier(req.body)) };
}

/**
 * The usage of a stream whose client left before its end, so that a client that always leaves before the
 * final usage event still pays for what it read: the usage the upstream reported so far, plus the output
 * the client was sent after that report, counted from the generated characters that went out (text,
 * reasoning, tool arguments; core/tally-stream.ts). Characters become tokens at the ~4 characters a token
 * of the reservation's prompt estimate, not by the token counter: the count is kept on every streamed
 * event, where nothing may be buffered or tokenized, and the counter would need the text. Undefined when
 * nothing was sent after the latest report: the reported usage stands as it is.
 */
function deliveredUsage(body: unknown, reported: Usage | undefined, streamed: StreamedSoFar): Usage | undefined {
  const unreported = estimateTokensOfCharacters(streamed.deliveredSinceUsage());
  if (unreported === 0) return undefined;
  return {
    // Anthropic reports the prompt at the start of a stream; without such a report the prompt is estimated too.
    inputTokens: reported?.inputTokens ?? estimatePromptTokens(body),
    cachedInputTokens: reported?.cachedInputTokens ?? 0,
    outputTokens: (reported?.outputTokens ?? 0) + unreported,
    reasoningTokens: reported?.reasoningTokens ?? 0,
    estimated: true,
  };
}
