import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface ScriptCoverage {
  url: string;
  functions: Array<{ functionName: string; isBlockCoverage: boolean; ranges: CoverageRange[] }>;
}

/** What ran of one folder's files since the previous snapshot. */
export interface Snapshot {
  /** Files (relative to the folder) with a function called. */
  called: Set<string>;
  /** Files with any code run: a call, or a block of an async function or generator resumed since. */
  ran: Set<string>;
}

/**
 * V8 precise coverage over `node:inspector`, in this thread, with call counts and block counts. Each
 * `take` returns what ran since the one before (V8 resets the counters on every take), so consecutive
 * takes cut a request into phases. A session in the same thread answers `post` synchronously, so a take
 * inside an event handler sees exactly what ran before that handler.
 */
export class CoverageSnapshots {
  readonly session = new Session();

  constructor(private readonly folder: string) {
    this.session.connect();
    this.post('Profiler.enable');
    // Block counts as well as call counts: an async function resumed by a chunk runs without being called again.
    this.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  take(): Snapshot {
    const { result } = this.post<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
    const called = new Set<string>();
    const ran = new Set<string>();
    for (const script of result) {
      const file = this.fileOf(script.url);
      if (!file) continue;
      // The first range of each function is the whole function, counting its calls; the others are blocks.
      if (script.functions.some((fn) => fn.ranges[0]!.count > 0)) called.add(file);
      if (script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) ran.add(file);
    }
    return { called, ran };
  }

  /** Sends a command and returns its result, synchronously (a same-thread session answers at once). */
  post<T = unknown>(method: string, params?: object): T {
    let answer: { error: Error | null; result?: T } | undefined;
    this.session.post(method, params, (error, result) => (answer = { error, result: result as T }));
    if (!answer) throw new Error(`${method} did not answer synchronously`);
    if (answer.error) throw answer.error;
    return answer.result!;
  }

  private fileOf(url: string): string | undefined {
    if (!url.startsWith('file://')) return undefined;
    const path = fileURLToPath(url.split('?')[0]!);
    return path.startsWith(this.folder) ? path.slice(this.folder.length) : undefined;
  }
}
