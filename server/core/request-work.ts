import { GatewayError } from './gateway-error.js';

/** How long, and how many bytes of answer, the gateway reads on for a client that left (`ledger.abandoned_streams`). */
export interface DrainBound {
  seconds: number;
  bytes: number;
}

/** How long a stopped request's handler gets to unwind before its work counts as over anyway, so no row waits on it. */
const stopGraceMs = 2_000;

/**
 * The upstream work of one request, which outlives its client. An upstream bills what it generates
 * whether or not anyone reads it, so a client that leaves does not stop the work: the gateway reads on,
 * dropping what it would have sent, until the upstream's answer (and its usage report) is whole, within a
 * {@link DrainBound} (metering/create-metering.ts starts it). The work stops early only when told to: the
 * bound is reached, or shutdown ends it (http/in-flight-requests.ts). Its signal is what every upstream
 * call of the request is cancelled by.
 *
 * @example
 * const work = contextOf(req).work;
 * await provider.call(body, { signal: work.signal });
 * // the client left:
 * work.abandon({ seconds: 120, bytes: 16 * 1024 * 1024 });
 * await work.done; // the upstream finished, or the bound stopped it (work.stopped)
 */
export class RequestWork {
  private controller: AbortController | undefined;
  private stopReason: { reason: unknown } | undefined;
  private finished = false;
  private settle: (() => void) | undefined;
  private donePromise: Promise<void> | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  /** Bytes of answer left to read for a client that left; 0 while the client is there (nothing is read for nobody). */
  private bytesLeft = 0;

  /** Aborts once the work is stopped, with the reason it was given. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopReason) this.controller.abort(this.stopReason.reason);
    }
    return this.controller.signal;
  }

  /** Whether the work was stopped before it finished (the drain bound or shutdown): its answer may be partial. */
  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  /** Resolves once the handler is done with the request (or {@link stopGraceMs} after a stop it did not heed). */
  get done(): Promise<void> {
    this.donePromise ??= this.finished ? Promise.resolve() : new Promise((resolve) => (this.settle = resolve));
    return this.donePromise;
  }

  /** Cancels the upstream calls with `reason` (a GatewayError the handler answers with, if anyone still listens). */
  stop(reason: unknown): void {
    if (this.stopReason || this.finished) return;
    this.stopReason = { reason };
    this.controller?.abort(reason);
    setTimeout(() => this.finish(), stopGraceMs).unref();
  }

  /** The handler is done: its answer was sent, or it failed, or the request ended before it. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.drainTimer);
    this.settle?.();
  }

  /** The client left: read on for at most `bound`, then stop. */
  abandon(bound: DrainBound): void {
    if (this.finished || this.stopReason) return;
    this.bytesLeft = bound.bytes;
    this.drainTimer = setTimeout(() => this.stop(drainBoundReached('drain_seconds')), bound.seconds * 1000);
    this.drainTimer.unref();
  }

  /**
   * Counts `bytes` of answer read for a client that left, and says whether to read on: false once the
   * drain's bytes are spent (the work is then stopped) or when there is no drain.
   */
  readOnFor(bytes: number): boolean {
    this.bytesLeft -= bytes;
    if (this.bytesLeft >= 0 && !this.stopReason) return true;
    this.stop(drainBoundReached('drain_bytes'));
    return false;
  }
}

function drainBoundReached(bound: 'drain_seconds' | 'drain_bytes'): GatewayError {
  return new GatewayError('timeout', `The client left and the upstream's answer outlasted ledger.abandoned_streams.${bound}: it is cut, and the request charged its worst case.`);
}
