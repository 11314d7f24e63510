import type { GatewayLogSummary } from '../bench/gateway-log-digest.js';
import type { MachineInfo } from '../bench/machine-info.js';
import type { SoakSample } from './gateway-sampler.js';
import type { KindSummary } from './request-tally.js';
import type { SoakOptions } from './soak-options.js';
import type { SoakVerdict } from './soak-verdict.js';

/** A moment of the run whose sample the report shows in full. */
export interface SoakPoint {
  label: string;
  sample: SoakSample;
}

/** soak/results.json: everything REPORT.md is rendered from, and every sample. */
export interface SoakResults {
  kind: 'soak';
  command: string;
  machine: MachineInfo;
  options: SoakOptions;
  gateway: {
    pid: number;
    /** The kernel's record of the gateway's highest RSS over its life (VmHWM). */
    vmHwmMb: number;
    log: GatewayLogSummary;
  };
  /** Seconds on the samples' clock (0 = the gateway had just become healthy). */
  timeline: {
    loadStartedAt: number;
    warmupEndedAt: number;
    loadEndedAt: number;
    /** How long the gateway took to close every connection before / after the load; `idle` false if it never did. */
    settleBefore: { seconds: number; idle: boolean };
    settleAfter: { seconds: number; idle: boolean };
  };
  points: SoakPoint[];
  verdict: SoakVerdict;
  requests: { total: number; failed: number; perSecond: number; kinds: KindSummary[] };
  /** Each kind once, before the load (not in `requests`). */
  priming: { total: number; failed: number };
  samples: SoakSample[];
}
