import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../access/principal.js';
import { principalOf } from '../access/principal-of.js';
import type { ModelRegistry } from '../core/model-registry.js';
import type { Usage } from '../core/types.js';
import { GatewayError } from '../http/gateway-error.js';
import { contextOf, type RequestContext } from '../http/request-context.js';
import type { LimitScope, LimitStore, Reservation } from '../limits/limit-store.js';
import { limitScopeKeyId } from '../store/key-store.js';
import { costOf } from '../usage/cost.js';
import { newUsageRecordId } from '../usage/usage-record.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { SyncLedger } from '../usage/sync-ledger.js';
import { commitUsageBeforeEnd, type RecordUsage } from './commit-usage-before-end.js';
import { estimatePromptTokens, estimateReservedTokens } from './estimate-reserved-tokens.js';
import { meteredEndpoint, type MeteredEndpoint } from './metered-endpoint.js';

export interface MeteringDependencies {
  registry: ModelRegistry;
  limits: LimitStore;
  recorder: UsageRecorder;
  /** With `ledger.durability: sync`: each row is committed here before its response ends. */
  syncLedger?: SyncLedger;
  logger: Logger;
}

/** The middleware, plus what shutdown must wait for. */
export interface Metering {
  middleware: RequestHandler;
  /** Resolves once every finished request's limits are settled. */
  idle(): Promise<void>;
}

/**
 * Meters every model request, on every surface, in one place: before the request is served its account's
 * and key's limits are reserved (requests, an estimate of tokens, a concurrency slot, spend so far), and
 * refused with 429 when any is reached; when the response is over, however it ended, the reservation is
 * settled with the real token count and cost, and one usage row is queued for the ledger.
 */
export function createMetering(deps: MeteringDependencies): Metering {
  const settling = new Set<Promise<void>>();
  const settle = (reservation: Reservation, outcome: Outcome) => {
    const tokens = outcome.reported ? outcome.usage.inputTokens + outcome.usage.outputTokens : reservation.tokens;
    const settled = deps.limits
      .settle(reservation, { tokens, costUsd: outcome.costUsd })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'settling a limit reservation failed'))
      .finally(() => settling.delete(settled));
    settling.add(settled);
  };

  const middleware: RequestHandler = async (req, res, next) => {
    const context = contextOf(req);
    const endpoint = meteredEndpoint(context, req.body);
    if (!endpoint) return next();
    // Every metered operation needs a key (the spec's security), so authentication has put one here.
    const principal = principalOf(context);
    const startedAt = Date.now();
    let reservation: Reservation | undefined;
    let outcome: Outcome | undefined;
    // Built once, when the response closes (or, with a sync ledger, as it ends), from what the handler left.
    const recordUsage: RecordUsage = (keep) => {
      if (outcome) return;
      outcome = outcomeOf(req, res, context, endpoint, deps.registry);
      keep({
        id: newUsageRecordId(),
        created_at: startedAt,
        request_id: context.requestId,
        account_id: principal.account.id,
        key_id: principal.key.id,
        model: outcome.model,
        deployment: outcome.deployment,
        protocol: endpoint.protocol,
        endpoint: endpoint.endpoint,
        status: res.statusCode,
        input_tokens: outcome.usage.inputTokens,
        cached_input_tokens: outcome.usage.cachedInputTokens,
        output_tokens: outcome.usage.outputTokens,
        reasoning_tokens: outcome.usage.reasoningTokens,
        image_count: outcome.imageCount,
        latency_ms: Date.now() - startedAt,
        cost_usd: outcome.costUsd,
        estimated: outcome.usage.estimated === true,
      });
      if (reservation) settle(reservation, outcome);
    };
    // Registered before the limits are asked, so a refused request (429) is in the ledger too.
    res.once('close', () => recordUsage((row) => deps.recorder.record(row)));
    if (deps.syncLedger) commitUsageBeforeEnd(res, deps.syncLedger, recordUsage);
    const scopes = limitScopes(principal);
    if (scopes.length > 0) {
      reservation = await reserve(deps.limits, scopes, endpoint.consumesTokens ? estimateReservedTokens(req.body) : 0);
      // The client may have gone while the counters were asked: its slot must not wait for the lease to expire.
      if (outcome) settle(reservation, outcome);
    }
    next();
  };

  return {
    middleware,
    async idle() {
      while (settling.size > 0) await Promise.all(settling);
    },
  };
}

/** The account's limits and the key's own, each a scope of its own; none when neither has any. */
function limitScopes(principal: Principal): LimitScope[] {
  const scopes: LimitScope[] = [];
  if (Object.keys(principal.account.limits).length > 0) scopes.push({ id: `account:${principal.account.id}`, limits: principal.account.limits });
  if (Object.keys(principal.key.limits).length > 0) scopes.push({ id: `key:${limitScopeKeyId(principal.key)}`, limits: principal.key.limits });
  return scopes;
}

async function reserve(limits: LimitStore, scopes: LimitScope[], tokens: number): Promise<Reservation> {
  let result;
  try {
    result = await limits.reserve({ scopes, tokens });
  } catch (error) {
    // Without its counters the gateway cannot keep a limit, so it refuses rather than serve unmetered.
    throw new GatewayError('overloaded', 'Rate limits cannot be checked right now; try again shortly.', { status: 503, headers: { 'retry-after': '1' }, cause: error });
  }
  if (result.ok) return result.reservation;
  const { refusal } = result;
  throw new GatewayError('rate_limited', refusal.message, {
    code: refusal.retryable ? 'rate_limit_exceeded' : 'request_exceeds_limit',
    headers: refusal.retryable ? { 'retry-after': String(refusal.retryAfterSeconds) } : undefined,
  });
}

interface Outcome {
  model: string | null;
  deployment: string | null;
  usage: Usage;
  /** Whether the usage came from the answer (else zeros: nothing was generated, or nothing was said). */
  reported: boolean;
  imageCount: number;
  costUsd: number;
}

const noUsage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

/** What the handler left in the request context (see describeRoute and the handlers' `usage`). */
function outcomeOf(req: Request, res: Response, context: RequestContext, endpoint: MeteredEndpoint, registry: ModelRegistry): Outcome {
  const { route, usage: reportedUsage } = context;
  // An answer that was served without a usage report (an upstream stream that sent none) gets an
  // estimate of its prompt, marked as such, rather than a silent zero.
  const served = route !== undefined && res.statusCode < 400;
  const model = route?.model ?? endpoint.requestedModel ?? null;
  const deployment = route?.deployment ?? null;
  if (!endpoint.consumesTokens) return { model, deployment, usage: noUsage, reported: true, imageCount: 0, costUsd: 0 };
  const usage = reportedUsage ?? (served ? { ...noUsage, inputTokens: estimatePromptTokens(req.body), estimated: true } : noUsage);
  const imageCount = context.imageCount ?? 0;
  const pricing = model === null ? undefined : registry.find(model)?.pricing;
  return { model, deployment, usage, reported: reportedUsage !== undefined, imageCount, costUsd: costOf(usage, pricing, imageCount) };
}
