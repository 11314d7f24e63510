// What the gateways of a test process showed the world (response headers and bodies, log lines) and the
// secrets they held (admin keys, API keys, upstream keys), written at exit for the after-suite check
// test/after-suite/secret-exposure.check.ts. Recording is on only when scripts/run-tests.mjs sets
// SECRET_SCAN_DIR, so a single test file run by hand is not slowed.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** One process's record, as the after-suite check reads it. */
export interface ExposureRecord {
  file: string;
  secrets: string[];
  outputs: Array<{ where: string; text: string }>;
}

const directory = process.env.SECRET_SCAN_DIR;
const secrets = new Set<string>();
const outputs: ExposureRecord['outputs'] = [];
/** Sources read at exit, such as a gateway's growing log array. */
const lateOutputs: Array<() => { where: string; text: string }> = [];
/** Enough of each body to hold any error message or event; a 256 MB test stream is not kept whole. */
const maxBodyBytes = 256 * 1024;
/** The one answer meant to show a key's secret: the answer that created it. */
const keyCreation = /^POST (\/admin)?\/v1\/(accounts\/[^/]+\/)?keys$/;
const gatewayKeySecret = /sk-gw-[A-Za-z0-9_-]{20,}/g;

if (directory) process.once('exit', writeExposureRecord);

/**
 * Writes this thread's record. At process exit by itself; a worker thread, which is terminated rather than
 * left to exit, calls it before it says it has closed. Each thread has its own file.
 */
export function writeExposureRecord(): void {
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  const record: ExposureRecord = { file: process.argv[1] ?? 'unknown', secrets: [...secrets], outputs: [...outputs, ...lateOutputs.map((read) => read())] };
  writeFileSync(join(directory, `${process.pid}-${threadId}.json`), JSON.stringify(record));
}

/** A secret that must never show: in a log line, a response header or a response body. */
export function holdsSecret(...values: Array<string | undefined>): void {
  if (!directory) return;
  for (const value of values) if (value) secrets.add(value);
}

/** Secrets the gateway made and handed out once (a new key's secret in the answer that created it). */
export function holdsSecretsShownIn(text: string): void {
  holdsSecret(...(text.match(gatewayKeySecret) ?? []));
}

/** Text a gateway showed; `read` is called at exit, for sources that keep growing (a log array). */
export function showedLater(where: string, read: () => string): void {
  if (directory) lateOutputs.push(() => ({ where, text: read() }));
}

/**
 * Records every response of `server`: its headers and the start of its body. Observes only: the writes
 * go on unchanged.
 */
export function recordResponses(server: Server, where: string): void {
  if (!directory) return;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    let kept = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || kept >= maxBodyBytes) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
      parts.push(bytes.subarray(0, maxBodyBytes - kept));
      kept += bytes.byteLength;
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    res.once('close', () => {
      // Spelled as the gateway reads it (empty segments ignored), so a key made at `//v1/keys/` counts as made.
      const request = `${req.method} ${(req.url ?? '').split('?')[0]!.replace(/\/+/g, '/').replace(/(.)\/$/, '$1')}`;
      const body = Buffer.concat(parts).toString('utf8');
      outputs.push({ where: `${where}: headers of ${request}`, text: JSON.stringify(res.getHeaders()) });
      if (keyCreation.test(request)) holdsSecretsShownIn(body);
      else outputs.push({ where: `${where}: body of ${request} (${res.statusCode})`, text: body });
    });
  });
}
