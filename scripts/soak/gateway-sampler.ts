import { readFileSync } from 'node:fs';
import { readProcessTreeMemory } from '../bench/process-memory.js';
import { round } from '../bench/stats.js';
import { readDescriptors, type DescriptorCount } from './open-descriptors.js';

/** Where the soak is when a sample is taken; the verdict compares samples by phase. */
export type SoakPhase = 'start' | 'idle-before' | 'warmup' | 'load' | 'settling' | 'idle-after';

export interface SoakSample {
  /** Seconds since the sampler started (the gateway had just become healthy). */
  seconds: number;
  phase: SoakPhase;
  rssMb: number;
  fds: DescriptorCount;
  /** The gateway's user + system CPU time so far. */
  cpuSeconds: number;
  /** Requests the load had finished by then. */
  requests: number;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times; 100 on every mainstream architecture. */
const clockTicksPerSecond = 100;

/**
 * Reads the gateway's RSS (VmRSS, via the bench's reader), open descriptors and CPU time every
 * `intervalMs`, tagging each sample with the current phase. Reading /proc costs the gateway nothing:
 * the kernel answers, the gateway's event loop is not involved.
 */
export class GatewaySampler {
  readonly samples: SoakSample[] = [];
  phase: SoakPhase = 'start';
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = performance.now();

  constructor(
    private readonly pid: number,
    private readonly intervalMs: number,
    private readonly requestsSoFar: () => number,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  /** Takes a sample now (also kept in `samples`); undefined once the gateway has gone. */
  sample(): SoakSample | undefined {
    const fds = readDescriptors(this.pid);
    if (!fds) return undefined;
    const sample: SoakSample = {
      seconds: round((performance.now() - this.startedAt) / 1000, 1),
      phase: this.phase,
      rssMb: round(readProcessTreeMemory(this.pid).rssMb, 1),
      fds,
      cpuSeconds: readCpuSeconds(this.pid),
      requests: this.requestsSoFar(),
    };
    this.samples.push(sample);
    return sample;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function readCpuSeconds(pid: number): number {
  try {
    // The command name in parentheses may hold spaces; the fields after it are fixed: utime is the 12th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return round((Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond, 2);
  } catch {
    return Number.NaN;
  }
}
