// The published-spec oracle on every test gateway (start-gateway.ts): each answer on an OpenAI operation,
// whole JSON bodies and every event of an event stream, is checked against OpenAI's published spec as it
// is written, and what breaks it fails the test that was running. It only observes (the gateway's writes
// go on unchanged) and lives only in the tests: production never loads the published spec.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { after, afterEach } from 'node:test';
import { isMainThread } from 'node:worker_threads';
import type { OperationId } from '../../../generated/operations.js';
import { openAiOperationOf, publishedSchemaFor } from './openai-surface.js';
import { publishedValidator } from './published-validator.js';

/** What the gateways of this thread sent that breaks the published spec, not yet reported. */
const violations: string[] = [];

/** Takes (and forgets) the violations seen so far: a worker thread's gateway hands them to its parent. */
export function takeOpenAiViolations(): string[] {
  return violations.splice(0);
}

/** Throws the violations seen so far as one error naming each answer, path and rule. */
export function assertNoOpenAiViolations(): void {
  const found = takeOpenAiViolations();
  if (found.length) throw new Error(`answers break OpenAI's published spec (test/helpers/openai-spec/):\n${found.join('\n')}`);
}

// In the test's own thread: the test during which an answer broke the spec fails, and what a `before` or
// `after` hook's requests broke fails the file. (A worker thread has no tests; it hands its findings over.)
if (isMainThread) {
  afterEach(assertNoOpenAiViolations);
  after(assertNoOpenAiViolations);
  process.once('exit', () => {
    if (!violations.length) return;
    console.error(`answers break OpenAI's published spec:\n${violations.join('\n')}`);
    process.exitCode = 1;
  });
}

/** Checks every answer `server` gives on an OpenAI operation. */
export function watchOpenAiAnswers(server: Server): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const operationId = req.method === 'HEAD' ? undefined : openAiOperationOf(req);
    if (operationId) watchAnswer(operationId, req, res);
  });
}

function watchAnswer(operationId: OperationId, req: IncomingMessage, res: ServerResponse): void {
  const what = `${req.method} ${req.url}`;
  const chunks: Buffer[] = [];
  let events: EventStreamReader | undefined;
  // Headers handed to writeHead are not in getHeader's view; kept here.
  let writtenType: string | undefined;
  const contentType = () => String(res.getHeader('content-type') ?? writtenType ?? '');
  const take = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    if (/^text\/event-stream/.test(contentType())) {
      events ??= new EventStreamReader(operationId, res.statusCode, what);
      events.read(bytes);
    } else if (/^application\/json/.test(contentType())) chunks.push(bytes);
    // Anything else (a file's content) is not checked, so not kept: a download's bytes would sit here whole.
  };
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    writtenType = contentTypeIn(args.find((arg) => typeof arg === 'object' && arg !== null));
    return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    observe(() => take(chunk, rest[0]));
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    observe(() => {
      take(chunk, rest[0]);
      if (events) events.finish();
      else checkJson(operationId, res.statusCode, contentType(), Buffer.concat(chunks), what);
    });
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
}

/** Runs a check so that a bug in the oracle itself is reported like a violation, never thrown into the gateway. */
function observe(check: () => void): void {
  try {
    check();
  } catch (error) {
    violations.push(`the published-spec oracle failed: ${(error as Error).stack ?? String(error)}`);
  }
}

/** The content type among writeHead's headers (an object, or a flat array of names and values). */
function contentTypeIn(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const at = headers.findIndex((item, index) => index % 2 === 0 && String(item).toLowerCase() === 'content-type');
    return at === -1 ? undefined : String(headers[at + 1]);
  }
  const found = Object.entries((headers ?? {}) as Record<string, unknown>).find(([name]) => name.toLowerCase() === 'content-type');
  return found ? String(found[1]) : undefined;
}

function checkJson(operationId: OperationId, status: number, contentType: string, body: Buffer, what: string): void {
  if (!body.length || !/^application\/json/.test(contentType)) return;
  const schemaName = publishedSchemaFor(operationId, status, 'application/json');
  if (!schemaName) return;
  check(schemaName, JSON.parse(body.toString('utf8')), `${what} → ${status} JSON`);
}

function check(schemaName: string, value: unknown, where: string): void {
  const found = publishedValidator().violations(schemaName, value);
  if (found.length) violations.push(`${where} is no ${schemaName}:\n  ${found.join('\n  ')}\n  ${JSON.stringify(value).slice(0, 1500)}`);
}

/**
 * Splits an event stream into events as it is written and checks each: the `data:` of every event, except
 * Chat Completions' closing `[DONE]`. An event of a Chat Completions or Images stream that carries `error`
 * (how OpenAI, and the gateway, report a failure after the stream began, which OpenAI's spec leaves out of
 * those streams and its SDK reads as an APIError) must be an `ErrorResponse`; a Responses stream has its
 * own `error` event, which ResponseStreamEvent describes.
 */
class EventStreamReader {
  private pending = '';
  private count = 0;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly operationId: OperationId,
    private readonly status: number,
    private readonly what: string,
  ) {}

  read(bytes: Buffer): void {
    this.pending += this.decoder.decode(bytes, { stream: true });
    const frames = this.pending.split(/\r?\n\r?\n/);
    this.pending = frames.pop()!;
    for (const frame of frames) this.checkFrame(frame);
  }

  finish(): void {
    this.pending += this.decoder.decode();
    if (this.pending.trim()) this.checkFrame(this.pending);
    this.pending = '';
  }

  private checkFrame(frame: string): void {
    const data = frame
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data || data === '[DONE]') return;
    const index = this.count++;
    const value = JSON.parse(data) as { type?: unknown; error?: unknown };
    const errorEvent = this.operationId !== 'createResponse' && value !== null && typeof value === 'object' && 'error' in value;
    const schemaName = errorEvent ? 'ErrorResponse' : publishedSchemaFor(this.operationId, this.status, 'text/event-stream');
    if (!schemaName) {
      violations.push(`${this.what} → ${this.status} answers with an event stream, which OpenAI's published spec does not give it`);
      return;
    }
    check(schemaName, value, `${this.what} → event ${index}${typeof value.type === 'string' ? ` (${value.type})` : ''}`);
  }
}
