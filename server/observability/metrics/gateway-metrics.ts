import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { AttemptObserver, AttemptStartObserver } from '../../core/router.js';
import type { LimitRefusal } from '../../limits/limit-store.js';
import type { UsageRecord } from '../../usage/usage-record.js';

/** The label a value gets when it is not one the gateway configured (a model name a client made up). */
export const unknownLabel = 'unknown';
/** The model and provider labels of an operation that calls no model (admin, listings, health). */
export const noneLabel = 'none';

/** Counts the usage ledger keeps of itself, read at scrape time (usage-recorder.ts, sync-ledger.ts). */
export interface LedgerGauges {
  queuedRows(): number;
  failedWrites(): number;
  droppedRows(): number;
}

const requestLabels = ['operation', 'model', 'provider', 'status'] as const;
const usageLabels = ['operation', 'model', 'provider'] as const;
type UsageLabels = Record<(typeof usageLabels)[number], string>;

/**
 * Every metric of one gateway process, in a registry of its own. Label values come only from the config
 * (model and provider IDs), the spec (operation IDs), status codes and fixed enums, never from request
 * text, so a client cannot grow the number of series: `modelLabel` turns a name no model has into
 * `unknown`.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly providerOfDeployment: Map<string, string>;

  private readonly requests = new Counter({ name: 'gateway_requests_total', help: 'Requests answered, by operation, model, provider and status (499: the client left first).', labelNames: requestLabels, registers: [this.registry] });
  private readonly duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from a request arriving to its response being over.',
    labelNames: requestLabels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly firstToken = new Histogram({
    name: 'gateway_time_to_first_token_seconds',
    help: 'Time from a streamed request arriving to its first event being sent.',
    labelNames: ['operation', 'model', 'provider'],
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [this.registry],
  });
  private readonly openStreams = new Gauge({ name: 'gateway_open_streams', help: 'Streamed answers being sent.', registers: [this.registry] });
  private readonly tokens = new Counter({ name: 'gateway_tokens_total', help: 'Tokens of model requests as the usage ledger counts them, by type (input, cached_input, output, reasoning).', labelNames: [...usageLabels, 'type'], registers: [this.registry] });
  private readonly cost = new Counter({ name: 'gateway_cost_usd_total', help: 'Cost of model requests in US dollars, at the configured prices.', labelNames: usageLabels, registers: [this.registry] });
  private readonly attempts = new Counter({
    name: 'gateway_upstream_attempts_total',
    help: "Upstream attempts, by provider and kind: a request's first, a retry (a later attempt on the requested model) or a fallback (an attempt on a fallback model).",
    labelNames: ['provider', 'kind'],
    registers: [this.registry],
  });
  private readonly upstreamErrors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: "Failed upstream attempts, by provider, the router's verdict (retry, next, stop) and upstream status (none: no answer).",
    labelNames: ['provider', 'verdict', 'status'],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({ name: 'gateway_limit_refusals_total', help: 'Requests refused (429) by a limit, by limit and scope (account, key).', labelNames: ['limit', 'scope'], registers: [this.registry] });

  constructor(private readonly models: ModelRegistry) {
    this.providerOfDeployment = new Map(models.all().flatMap((model) => model.deployments.map((deployment) => [deployment.key, deployment.provider.id] as const)));
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reads the ledger's own counts at each scrape, so that recording a row costs nothing more. */
  watchLedger(ledger: LedgerGauges): void {
    const seen = { failed: 0, dropped: 0 };
    const failures = new Counter({ name: 'gateway_ledger_write_failures_total', help: 'Usage ledger writes that failed (their rows are retried).', registers: [this.registry] });
    const dropped = new Counter({ name: 'gateway_ledger_dropped_rows_total', help: 'Usage rows dropped because the ledger queue was full.', registers: [this.registry] });
    new Gauge({
      name: 'gateway_ledger_queued_rows',
      help: 'Usage rows waiting to be written to the ledger.',
      registers: [this.registry],
      collect() {
        this.set(ledger.queuedRows());
        failures.inc(ledger.failedWrites() - seen.failed);
        dropped.inc(ledger.droppedRows() - seen.dropped);
        seen.failed = ledger.failedWrites();
        seen.dropped = ledger.droppedRows();
      },
    });
  }

  /** A model's label: its configured ID, or `unknown` for a name no model has. */
  modelLabel(name: string | null | undefined): string {
    return name != null && this.models.find(name) ? name : unknownLabel;
  }

  providerLabel(deploymentKey: string | null | undefined): string {
    return (deploymentKey != null && this.providerOfDeployment.get(deploymentKey)) || unknownLabel;
  }

  requestEnded(labels: Record<(typeof requestLabels)[number], string>, seconds: number): void {
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  firstTokenSent(labels: UsageLabels, seconds: number): void {
    this.firstToken.observe(labels, seconds);
  }

  streamOpened(): void {
    this.openStreams.inc();
  }

  streamClosed(): void {
    this.openStreams.dec();
  }

  /** A usage row as metering wrote it: its tokens and cost, the same numbers the ledger gets. */
  usageRecorded(operation: string, row: UsageRecord): void {
    const labels = { operation, model: this.modelLabel(row.model), provider: this.providerLabel(row.deployment) };
    if (row.input_tokens > 0) this.tokens.inc({ ...labels, type: 'input' }, row.input_tokens);
    if (row.cached_input_tokens > 0) this.tokens.inc({ ...labels, type: 'cached_input' }, row.cached_input_tokens);
    if (row.output_tokens > 0) this.tokens.inc({ ...labels, type: 'output' }, row.output_tokens);
    if (row.reasoning_tokens > 0) this.tokens.inc({ ...labels, type: 'reasoning' }, row.reasoning_tokens);
    if (row.cost_usd > 0) this.cost.inc(labels, row.cost_usd);
  }

  readonly attemptStarted: AttemptStartObserver = ({ target, attempt, fallback }) => {
    this.attempts.inc({ provider: target.deployment.provider.id, kind: fallback ? 'fallback' : attempt > 1 ? 'retry' : 'first' });
  };

  /** The verdict is classifyFailure's (retry, next, stop): a fixed set. */
  readonly attemptFailed: AttemptObserver = ({ target, error, verdict }) => {
    const status = error instanceof GatewayError ? error.upstream?.status : undefined;
    this.upstreamErrors.inc({ provider: target.deployment.provider.id, verdict, status: status === undefined ? noneLabel : String(status) });
  };

  limitRefused(refusal: Pick<LimitRefusal, 'limit' | 'scopeId'>): void {
    this.refusals.inc({ limit: refusal.limit, scope: refusal.scopeId.startsWith('key:') ? 'key' : 'account' });
  }
}
