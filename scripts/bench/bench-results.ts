import type { BenchOptions } from './bench-options.js';
import type { GatewayLogSummary } from './gateway-log-digest.js';
import type { MachineInfo } from './machine-info.js';
import type { WorkerScalingResult } from './measure-worker-scaling.js';
import type { LoadSummary } from './measure-throughput.js';
import type { TtfbSummary } from './measure-ttfb.js';
import type { ScenarioId, TargetName } from './scenarios.js';

/** The shape of bench/results.json (and smoke-results.json). Times in ms, memory in MB (MiB). */
export interface BenchResults {
  kind: 'full' | 'smoke';
  machine: MachineInfo;
  settings: BenchOptions & { workers?: string };
  elapsedSeconds: number;
  scenarios: ScenarioResult[];
  /** Scenario (a) at one connection: the per-request cost without queueing. */
  singleConnection?: SingleConnectionResult;
  /** Scenario (a) through one gateway process and through WORKERS=2. */
  workerScaling?: WorkerScalingResult;
  gateway: {
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
