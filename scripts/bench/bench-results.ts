import type { BenchOptions } from './bench-options.js';
import type { GatewayLogSummary } from './gateway-log-digest.js';
import type { MachineInfo } from './machine-info.js';
import type { WorkerScalingResult } from './measure-worker-scaling.js';
import type { LoadSummary } from './measure-throughput.js';
import type { TtfbSummary } from './measure-ttfb.js';
import type { BatchApiName } from './batch-apis.js';
import type { ScenarioId, TargetName } from './scenarios.js';

/** The shape of bench/results.json (and smoke-results.json). Times in ms, memory in MB (MiB). */
export interface BenchResults {
  kind: 'full' | 'smoke';
  machine: MachineInfo;
  settings: BenchOptions & { workers?: string };
  /** os.loadavg() (1, 5, 15 minutes) when the run started and ended: how busy the machine was. */
  loadAverage: { atStart: number[]; atEnd: number[] };
  elapsedSeconds: number;
  scenarios: ScenarioResult[];
  /** Scenario (a) at one connection: the per-request cost without queueing. */
  singleConnection?: SingleConnectionResult;
  /** Scenario (a) through one gateway process and through WORKERS=2. */
  workerScaling?: WorkerScalingResult;
  /** Scenario (f): a batch through the gateway's runner, and interactive latency beside it. */
  batch?: BatchScenarioResult;
  /** The gateway of scenarios (a)–(e); absent when the run had none of them. */
  gateway?: {
    /** VmHWM at the end of the run: the kernel's record of the highest RSS. */
    peakRssMb: number;
    /** The highest RSS sampled every 100 ms (processes' sum when the gateway has workers). */
    peakSampledRssMb: number;
    /** What the gateway logged at LOG_LEVEL=warn, counted by message (ideally nothing). */
    log: GatewayLogSummary;
  };
  checks: TargetCheck[];
}

export interface ScenarioResult {
  id: ScenarioId;
  title: string;
  streams: boolean;
  baselineNote?: string;
  load: Record<TargetName, LoadSummary>;
  /** Median latency minus direct's median, at the bench's connection count. */
  addedMedianMs: { proxy: number; gateway: number };
  ttfb?: Record<TargetName, TtfbSummary>;
  /** Highest gateway RSS sampled while this scenario ran. */
  gatewayPeakRssMb: number;
}

export interface SingleConnectionResult {
  scenario: ScenarioId;
  load: Record<TargetName, LoadSummary>;
  /** Mean latency (1/rps) minus direct's. */
  addedMeanMs: { proxy: number; gateway: number };
}

/** One of issue 9's targets; `pass` is null when this run did not measure it. */
export interface TargetCheck {
  name: string;
  measured: string;
  pass: boolean | null;
}

/** Scenario (f), on a gateway of its own: interactive requests alone, then beside each batch API's batch. */
export interface BatchScenarioResult {
  id: 'f';
  title: string;
  settings: {
    lines: number;
    /** The gateway's `batches.lines_in_flight`. */
    linesInFlight: number;
    /** The gateway's `batches.poll_interval_ms`. */
    runnerPollIntervalMs: number;
    /** Interactive requests per second (paced by autocannon's `overallRate`) over this many connections. */
    interactiveRate: number;
    interactiveConnections: number;
    interactiveRequest: string;
    baselineSeconds: number;
    /** Unpaced interactive requests before anything is measured, then a small batch per API. */
    warmupRequests: number;
  };
  /** Interactive requests with no batch running. */
  baseline: LoadSummary;
  runs: BatchRun[];
  /** Interactive requests alone again after the batches: how far the machine drifted (the ratios use `baseline`). */
  baselineAfter: LoadSummary;
  /** Highest RSS sampled over the whole scenario. */
  gatewayPeakRssMb: number;
  /** What that gateway logged at LOG_LEVEL=warn (ideally nothing). */
  gatewayLog: GatewayLogSummary;
}

export interface BatchRun {
  api: BatchApiName;
  title: string;
  batchId: string;
  lines: number;
  succeeded: number;
  /** Lines that errored, or were canceled or expired. */
  failed: number;
  /** From sending the create request to the poll (every 100 ms) that saw the batch ended. */
  clientSeconds: number;
  /** From the batch's `created_at` to its `ended_at`, the gateway's clock. */
  serverSeconds: number;
  /** `lines` / `clientSeconds`. */
  linesPerSecond: number;
  /** `lines` / `serverSeconds`. */
  serverLinesPerSecond: number;
  /** `usage_records` rows with this batch's `batch_id`, and those of them answered 2xx: one per line is real work. */
  ledgerRows: number;
  ledgerOkRows: number;
  ledgerRowsMatch: boolean;
  /** Interactive requests while the batch ran, cut when it was seen ended. */
  interactive: LoadSummary;
  /** Interactive latency during the batch divided by the baseline's. */
  interactiveVsBaseline: { median: number; p99: number };
}
