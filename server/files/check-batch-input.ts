import { createHash } from 'node:crypto';
import { lineText, LineSplitter, LineTooLong, type NumberedLine } from './split-lines.js';

/** The endpoints a line of batch input may name, as OpenAI's Batch API takes them for what the gateway serves. */
export const batchEndpoints = ['/v1/chat/completions', '/v1/responses', '/v1/embeddings'] as const;
export type BatchEndpoint = (typeof batchEndpoints)[number];

/** OpenAI's bound on the requests of one batch ("up to 50,000 requests"): a file with more could never run. */
export const maxBatchRequests = 50_000;

/** The first thing wrong with a batch input file: the line and what is wrong with it (line 0: the file as a whole). */
export interface BatchInputProblem {
  line: number;
  message: string;
}

/**
 * Checks a `purpose: batch` upload as it streams, line by line, in OpenAI's request input format
 * (https://platform.openai.com/docs/api-reference/batch/request-input): each non-empty line a JSON object
 * with a `custom_id` string unique in the file, `method: "POST"`, a `url` among {@link batchEndpoints} and a
 * `body` object, and at most {@link maxBatchRequests} of them. It keeps one line and a digest of each custom ID
 * seen (so at most 50,000 of 44 characters), never the file. After the first problem it stops checking (the
 * upload is refused for it).
 */
export class BatchInputChecker {
  private readonly splitter: LineSplitter;
  /** Each custom ID seen, with the line it was first on. */
  private readonly seen = new Map<string, number>();
  private requests = 0;
  problem: BatchInputProblem | undefined;

  constructor(maxLineBytes: number) {
    this.splitter = new LineSplitter(maxLineBytes);
  }

  push(chunk: Buffer): void {
    if (this.problem) return;
    try {
      for (const line of this.splitter.push(chunk)) if (!this.check(line)) return;
    } catch (error) {
      if (!(error instanceof LineTooLong)) throw error;
      this.problem = { line: error.lineNumber, message: `it is over ${error.maxLineBytes} bytes, the largest request body the gateway takes` };
    }
  }

  /** Checks the last line and the file as a whole; the problem found, if any. */
  end(): BatchInputProblem | undefined {
    if (this.problem) return this.problem;
    const last = this.splitter.end();
    if (last) this.check(last);
    if (!this.problem && this.requests === 0) this.problem = { line: 0, message: 'the file holds no request (one JSON object per line)' };
    return this.problem;
  }

  private check(line: NumberedLine): boolean {
    const message = this.problemOf(line);
    if (message !== undefined) this.problem = { line: line.number, message };
    return message === undefined;
  }

  private problemOf(line: NumberedLine): string | undefined {
    const text = lineText(line);
    if (text === undefined) return 'it is not UTF-8 text';
    if (text.trim() === '') return undefined;
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch (error) {
      return `it is not valid JSON (${(error as Error).message})`;
    }
    this.requests += 1;
    if (this.requests > maxBatchRequests) return `a batch holds at most ${maxBatchRequests} requests, and this is request ${this.requests}`;
    return batchRequestProblem(request, this.seen, line.number);
  }
}

/** What is wrong with one parsed line of batch input, if anything; records its custom ID's digest in `seen`. */
export function batchRequestProblem(request: unknown, seen: Map<string, number>, lineNumber: number): string | undefined {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return 'it is not a JSON object';
  const { custom_id: customId, method, url, body } = request as Record<string, unknown>;
  if (customId === undefined) return "'custom_id' is missing";
  if (typeof customId !== 'string' || customId.length === 0) return "'custom_id' must be a non-empty string";
  // A digest, not the ID: a custom ID may be long, and 50,000 of them are kept.
  const digest = createHash('sha256').update(customId).digest('base64');
  const first = seen.get(digest);
  if (first !== undefined) return `'custom_id' ${JSON.stringify(customId.slice(0, 200))} is already used on line ${first}; each request needs its own`;
  seen.set(digest, lineNumber);
  if (method !== 'POST') return `'method' must be "POST", not ${JSON.stringify(method ?? null)}`;
  if (typeof url !== 'string' || !(batchEndpoints as readonly string[]).includes(url)) {
    return `'url' must be one of ${batchEndpoints.join(', ')}, not ${JSON.stringify(url ?? null)}`;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return "'body' must be a JSON object (the request's body)";
  return undefined;
}

/** The message of a 400 for a problem, naming its line. */
export function describeBatchInputProblem(problem: BatchInputProblem): string {
  return problem.line === 0 ? `Invalid batch input file: ${problem.message}.` : `Invalid batch input file, line ${problem.line}: ${problem.message}.`;
}
