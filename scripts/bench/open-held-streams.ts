import { Agent, request } from 'node:http';

export interface HeldStreams {
  /** Resolves once every stream has received its first body bytes (or failed). */
  allStarted: Promise<void>;
  /** Resolves once every stream has ended or failed. */
  allEnded: Promise<StreamOutcome>;
  started(): number;
  close(): void;
}

export interface StreamOutcome {
  /** Ended with `data: [DONE]`. */
  complete: number;
  /** Failed to connect, answered non-200, or ended without `[DONE]`. */
  failed: number;
  failures: string[];
}

/**
 * Opens `count` streaming chat requests at once, each on its own connection (an agent allowing `count`
 * sockets, without keep-alive so a finished stream closes its socket). Only the tail of each body is kept,
 * so the client's memory does not grow with the streams.
 */
export function openHeldStreams(origin: string, apiKey: string, count: number): HeldStreams {
  const agent = new Agent({ keepAlive: false, maxSockets: count });
  const url = new URL('/v1/chat/completions', origin);
  const body = JSON.stringify({ model: 'bench-chat', messages: [{ role: 'user', content: 'Hold this stream open.' }], stream: true });
  let started = 0;
  let settledStarts = 0;
  let ended = 0;
  const outcome: StreamOutcome = { complete: 0, failed: 0, failures: [] };
  let resolveStarted!: () => void;
  let resolveEnded!: (outcome: StreamOutcome) => void;
  const allStarted = new Promise<void>((resolve) => (resolveStarted = resolve));
  const allEnded = new Promise<StreamOutcome>((resolve) => (resolveEnded = resolve));

  for (let index = 0; index < count; index++) {
    let hasStarted = false;
    let hasEnded = false;
    const markStarted = () => {
      if (hasStarted) return;
      hasStarted = true;
      if (++settledStarts === count) resolveStarted();
    };
    const finish = (failure?: string) => {
      if (hasEnded) return;
      hasEnded = true;
      markStarted();
      if (failure) {
        outcome.failed++;
        if (outcome.failures.length < 5) outcome.failures.push(failure);
      } else {
        outcome.complete++;
      }
      if (++ended === count) resolveEnded(outcome);
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          if (!hasStarted) started++;
          markStarted();
          tail = (tail + text).slice(-64);
        });
        res.on('end', () => finish(res.statusCode !== 200 ? `status ${res.statusCode}` : tail.endsWith('data: [DONE]\n\n') ? undefined : 'ended without [DONE]'));
        res.on('error', (error) => finish(error.message));
      },
    );
    req.on('error', (error) => finish(error.message));
    req.end(body);
  }
  return { allStarted, allEnded, started: () => started, close: () => agent.destroy() };
}
