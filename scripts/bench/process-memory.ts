import { readFileSync } from 'node:fs';

/**
 * Resident memory of a process and its descendants (the gateway may fork cluster workers when WORKERS is
 * set), read from /proc: `VmRSS` now and `VmHWM`, the peak the kernel recorded. Linux only; in MB (MiB).
 */
export interface MemoryReading {
  rssMb: number;
  peakRssMb: number;
}

export function readProcessTreeMemory(pid: number): MemoryReading {
  let rssKb = 0;
  let peakKb = 0;
  for (const member of processTree(pid)) {
    const status = readStatus(member);
    if (!status) continue;
    rssKb += statusField(status, 'VmRSS');
    peakKb += statusField(status, 'VmHWM');
  }
  return { rssMb: rssKb / 1024, peakRssMb: peakKb / 1024 };
}

/**
 * Samples a process tree's RSS every `intervalMs` and keeps the highest value since the last `resetPeak()`:
 * VmHWM alone cannot be reset, so it cannot say which phase of a run reached the peak.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private peak = 0;
  private overallPeak = 0;

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  sample(): number {
    const { rssMb } = readProcessTreeMemory(this.pid);
    this.peak = Math.max(this.peak, rssMb);
    this.overallPeak = Math.max(this.overallPeak, rssMb);
    return rssMb;
  }

  /** The highest sample since start or the last reset, and starts a new window. */
  resetPeak(): number {
    const peak = Math.max(this.peak, this.sample());
    this.peak = 0;
    return peak;
  }

  /** The highest sample since start, never reset. */
  get overallPeakMb(): number {
    return this.overallPeak;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function processTree(pid: number): number[] {
  const children = readText(`/proc/${pid}/task/${pid}/children`)?.trim().split(/\s+/).filter(Boolean).map(Number) ?? [];
  return [pid, ...children.flatMap(processTree)];
}

function readStatus(pid: number): string | undefined {
  return readText(`/proc/${pid}/status`);
}

function statusField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process (or a worker) has gone
  }
}
