import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { AttemptObserver } from '../../core/attempt-observer.js';
import type { LimitRefusal } from '../../limits/limit-store.js';
import type { UsageRecord } from '../../usage/usage-record.js';
import { CheapCounter, CheapHistogram } from './cheap-series.js';

/** The label a value gets when it is not one the gateway configured (a model name a client made up). */
export const unknownLabel = 'unknown';
/** The model and provider labels of an operation that calls no model (admin, listings, health). */
export const noneLabel = 'none';

/** Counts the usage ledger's batch writer keeps of itself (usage-recorder.ts), read at scrape time. */
export interface LedgerGauges {
  queuedRows(): number;
  failedWrites(): number;
  droppedRows(): number;
}

const requestLabels = ['operation', 'model', 'provider', 'status'] as const;
const usageLabels = ['operation', 'model', 'provider'] as const;
/** Request labels as values, in `requestLabels` order. */
export type RequestLabelValues = readonly [operation: string, model: string, provider: string, status: string];
/** Usage labels as values, in `usageLabels` order. */
export type UsageLabelValues = readonly [operation: string, model: string, provider: string];

/**
 * Every metric of one gateway process, in a registry of its own. Label values come only from the config
 * (model and provider IDs), the spec (operation IDs), status codes and fixed enums, never from request
 * text, so a client cannot grow the number of series: `modelLabel` turns a name no model has into
 * `unknown`. What a request records goes to cheap-series.ts's counters and histograms, or to plain numbers
 * read at scrape time: nothing on the request path hashes a labels object.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly providerOfDeployment: Map<string, string>;
  private open = 0;
  private openWebSockets = 0;

  private readonly requests = new CheapCounter(this.registry, 'gateway_requests_total', 'Requests answered, by operation, model, provider and status (499: the client left first).', requestLabels);
  private readonly duration = new CheapHistogram(
    this.registry,
    'gateway_request_duration_seconds',
    'Time from a request arriving to its response being over.',
    requestLabels,
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  );
  private readonly firstToken = new CheapHistogram(
    this.registry,
    'gateway_time_to_first_token_seconds',
    'Time from a streamed request arriving to its first event being sent.',
    usageLabels,
    [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  );
  private readonly tokens = new CheapCounter(
    this.registry,
    'gateway_tokens_total',
    'Tokens of model requests as the usage ledger counts them, by type (input, cached_input, output, reasoning).',
    [...usageLabels, 'type'],
  );
  private readonly cost = new CheapCounter(this.registry, 'gateway_cost_usd_total', 'Cost of model requests in US dollars, at the configured prices.', usageLabels);
  private readonly attempts = new CheapCounter(
    this.registry,
    'gateway_upstream_attempts_total',
    "Upstream attempts, by provider and kind: a request's first, a retry (a later attempt on the requested model) or a fallback (an attempt on a fallback model).",
    ['provider', 'kind'],
  );
  private readonly upstreamErrors = new CheapCounter(
    this.registry,
    'gateway_upstream_errors_total',
    "Failed upstream attempts, by provider, the router's verdict (retry, next, stop) and upstream status (none: no answer).",
    ['provider', 'verdict', 'status'],
  );
  private readonly refusals = new CheapCounter(this.registry, 'gateway_limit_refusals_total', 'Requests refused (429) by a limit, by limit and scope (account, key).', ['limit', 'scope']);

  constructor(private readonly models: ModelRegistry) {
    this.providerOfDeployment = new Map(models.all().flatMap((model) => model.deployments.map((deployment) => [deployment.key, deployment.provider.id] as const)));
    collectDefaultMetrics({ register: this.registry });
    const metrics = this;
    new Gauge({
      name: 'gateway_open_streams',
      help: 'Streamed answers being sent.',
      registers: [this.registry],
      collect() {
        this.set(metrics.open);
      },
    });
    new Gauge({
      name: 'gateway_open_websockets',
      help: 'Responses WebSockets open (each of their turns is counted as a request).',
      registers: [this.registry],
      collect() {
        this.set(metrics.openWebSockets);
      },
    });
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

  requestEnded(labels: RequestLabelValues, seconds: number): void {
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  firstTokenSent(labels: UsageLabelValues, seconds: number): void {
    this.firstToken.observe(labels, seconds);
  }

  streamOpened(): void {
    this.open += 1;
  }

  streamClosed(): void {
    this.open -= 1;
  }

  webSocketOpened(): void {
    this.openWebSockets += 1;
  }

  webSocketClosed(): void {
    this.openWebSockets -= 1;
  }

  /** A usage row as metering wrote it: its tokens and cost, the same numbers the ledger gets. */
  usageRecorded(operation: string, row: UsageRecord): void {
    const model = this.modelLabel(row.model);
    const provider = this.providerLabel(row.deployment);
    if (row.input_tokens > 0) this.tokens.inc([operation, model, provider, 'input'], row.input_tokens);
    if (row.cached_input_tokens > 0) this.tokens.inc([operation, model, provider, 'cached_input'], row.cached_input_tokens);
    if (row.output_tokens > 0) this.tokens.inc([operation, model, provider, 'output'], row.output_tokens);
    if (row.reasoning_tokens > 0) this.tokens.inc([operation, model, provider, 'reasoning'], row.reasoning_tokens);
    if (row.cost_usd > 0) this.cost.inc([operation, model, provider], row.cost_usd);
  }

  /**
   * The routed calls' attempts (one of core/call-observer.ts's observers, of attempts only): each counted as
   * it starts, each failure by the router's verdict (classifyFailure's retry, next, stop: a fixed set) and
   * the upstream's status.
   */
  readonly observeCalls: AttemptObserver = {
    onAttempt: ({ target, attempt, fallback }) => {
      const provider = target.deployment.provider.id;
      this.attempts.inc([provider, fallback ? 'fallback' : attempt > 1 ? 'retry' : 'first']);
      return {
        failed: ({ error, verdict }) => {
          const status = error instanceof GatewayError ? error.upstream?.status : undefined;
          this.upstreamErrors.inc([provider, verdict, status === undefined ? noneLabel : String(status)]);
        },
      };
    },
  };

  limitRefused(refusal: Pick<LimitRefusal, 'limit' | 'scopeId'>): void {
    this.refusals.inc([refusal.limit, refusal.scopeId.startsWith('key:') ? 'key' : 'account']);
  }
}
