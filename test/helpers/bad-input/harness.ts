import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { errorLogLines, judgeAnswer, type Expectation } from './expect-answer.js';
import type { GatewayReady } from './gateway-worker.js';
import { closeConnections, requestTimeoutMs, send, type Answer } from './send.js';
import type { GatewayFacts } from './targets.js';

/**
 * The seed of every property in a run: `BAD_INPUT_SEED=<n>` replays a run (fast-check also prints the seed
 * and path of a failure), `BAD_INPUT_SEED=random` explores. By default the seed comes from the checked-out
 * commit: each commit tries new cases, and CI on a commit runs exactly the cases its author ran, so a
 * latent bug is found by whoever changes the code rather than by a later, unrelated landing.
 */
export const seed = chooseSeed(process.env.BAD_INPUT_SEED);

function chooseSeed(requested: string | undefined): number {
  const random = () => Math.floor(Math.random() * 2 ** 31);
  if (requested === 'random') return random();
  if (requested) return Number(requested);
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return Number.parseInt(commit.slice(0, 7), 16);
  } catch {
    return random(); // Not a git checkout.
  }
}

/**
 * fast-check's options for every property: no shrinking (a failing case is described by its label, and
 * shrinking megabyte bodies one request at a time could outlast CI), the error in the report.
 */
export const runs = (numRuns: number) => ({ seed, numRuns, endOnFailure: true, includeErrorInReport: true });

/**
 * Cases each bad-input file must send. Together they are the requirement's 10,000; each file checks its own
 * share, so a refactor that quietly lowers a `numRuns` fails.
 */
export const minimumCases = { bodies: 5_150, parameters: 2_550, transport: 1_800, multipart: 600 } as const;

/**
 * A case whose answer began later than this hung the gateway (a bad request is answered in milliseconds). It
 * times the status line, not the whole body: a valid request may stream thousands of events (a long echo), which
 * under CI's load took longer than this to read in full without anything having hung; the body is still
 * bounded by send.ts's timeout.
 */
export const slowCaseMs = 5_000;

/** The gateway's body limit (start-gateway.ts). */
export const bodyLimitBytes = 1024 * 1024;

/** The request a case sends. */
export interface CaseRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  chunked?: boolean;
}

/**
 * One real gateway per test file, in a worker thread (see gateway-worker.ts for why), the facts cases need
 * about it, and a count of cases sent.
 */
export class BadInputHarness {
  sent = 0;
  /** The case that hung or blocked the gateway, or how the worker died, if either happened. */
  private brokenBy: string | undefined;
  private constructor(
    private readonly worker: Worker,
    /** The gateway as seen from outside its thread: where it listens, its keys and data directory. */
    readonly gateway: GatewayReady,
    readonly facts: GatewayFacts,
    readonly models: Array<{ id: string; capabilities: string[] }>,
  ) {
    worker.on('error', (error) => (this.brokenBy ??= `the gateway's thread crashed: ${error.stack ?? error.message}`));
    worker.on('exit', (code) => (this.brokenBy ??= `the gateway's thread exited with code ${code}`));
  }

  static async start(): Promise<BadInputHarness> {
    const worker = new Worker(new URL('./gateway-worker-entry.mjs', import.meta.url));
    try {
      return await BadInputHarness.prepare(worker);
    } catch (error) {
      // Without this, a gateway that started late (a loaded machine) keeps listening in its thread and the
      // test file never exits: the whole suite then hangs instead of failing here.
      await worker.terminate();
      throw error;
    }
  }

  private static async prepare(worker: Worker): Promise<BadInputHarness> {
    const [{ ready: gateway }] = (await once(worker, 'message', { signal: AbortSignal.timeout(90_000) })) as [{ ready: GatewayReady }];
    const json = async (method: string, path: string, key: string, body?: unknown) => {
      const answer = await send(gateway.origin, {
        method,
        path,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.body}`);
      return JSON.parse(answer.body.toString('utf8'));
    };
    const { data: models } = await json('GET', '/v1/models', gateway.apiKey);
    // Things for path parameters to name: a scratch account (never the API key's own), a key, a response.
    const account = await json('POST', '/admin/v1/accounts', gateway.adminKey, { name: 'bad input scratch' });
    const key = await json('POST', '/v1/keys', gateway.apiKey, { name: 'bad input scratch' });
    const chatModel = models.find((model: { capabilities: string[] }) => model.capabilities.includes('chat')).id;
    const response = await json('POST', '/v1/responses', gateway.apiKey, { model: chatModel, input: 'hi', store: true });
    const existing = {
      model: models.map((model: { id: string }) => model.id),
      account_id: [account.id],
      key_id: [key.id],
      response_id: [response.id],
    };
    return new BadInputHarness(worker, gateway, { apiKey: gateway.apiKey, adminKey: gateway.adminKey, existing }, models);
  }

  /** The first model with a capability (`chat`, `image_generation`, ...). */
  modelWith(capability: string): string {
    const model = this.models.find((m) => m.capabilities.includes(capability));
    assert.ok(model, `no built-in model can ${capability}`);
    return model.id;
  }

  /**
   * Sends one case and throws, describing it, when the answer breaks the expectation, never comes (within
   * send.ts's timeout), or takes longer than `slowCaseMs`. After a hang every later case fails at once.
   */
  async check(label: string, request: CaseRequest, expected: Expectation): Promise<Answer> {
    if (this.brokenBy) throw new Error(`not sent: ${this.brokenBy}`);
    this.sent++;
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await send(this.gateway.origin, request);
    } catch (error) {
      const elapsed = Math.round(performance.now() - started);
      throw this.hung(label, `${describe(label, request, expected)}\n  → no answer after ${elapsed} ms: ${(error as Error).message}`);
    }
    const answeredAfter = answer.headersAfterMs ?? Math.round(performance.now() - started);
    if (answeredAfter > slowCaseMs) throw this.hung(label, `${describe(label, request, expected)}\n  → answered ${answer.status} after ${answeredAfter} ms: the gateway hung on it`);
    const problem = judgeAnswer(expected, answer);
    if (problem) throw new Error(`${describe(label, request, expected)}\n  → ${problem}`);
    return answer;
  }

  /** Why cases can no longer be sent (a hang, a crash), if they cannot: tests then skip rather than pile up failures. */
  get broken(): string | undefined {
    return this.brokenBy;
  }

  /** After a hang: stop the gateway's thread (it may be busy for an hour) and fail every later case at once. */
  private hung(label: string, message: string): Error {
    this.brokenBy ??= `an earlier case hung the gateway (${label})`;
    void this.worker.terminate();
    return new Error(message);
  }

  /** The gateway still answers its health probe and logged nothing at error level since the last check. */
  async assertHealthy(): Promise<void> {
    assert.equal(this.brokenBy, undefined);
    const health = await send(this.gateway.origin, { method: 'GET', path: '/healthz' });
    assert.equal(health.status, 200, 'the gateway no longer answers /healthz');
    this.worker.postMessage('logs');
    const [{ logs }] = (await once(this.worker, 'message', { signal: AbortSignal.timeout(requestTimeoutMs) })) as [{ logs: string[] }];
    assert.deepEqual(errorLogLines(logs).map((line) => line.slice(0, 600)), []);
  }

  async close(): Promise<void> {
    await closeConnections();
    if (this.brokenBy) {
      await this.worker.terminate();
      await rm(this.gateway.dataDir, { recursive: true, force: true });
      return;
    }
    this.worker.postMessage('close');
    const [{ openAiViolations }] = (await once(this.worker, 'message', { signal: AbortSignal.timeout(requestTimeoutMs) })) as [{ openAiViolations: string[] }];
    await this.worker.terminate();
    if (openAiViolations.length) throw new Error(`answers break OpenAI's published spec (test/helpers/openai-spec/):\n${openAiViolations.join('\n')}`);
  }
}

function describe(label: string, request: CaseRequest, expected: Expectation): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length} bytes)=${JSON.stringify(request.body.subarray(0, 200).toString('latin1'))}`;
  return `${label}: ${request.method} ${request.path.slice(0, 200)} headers=${JSON.stringify(request.headers ?? {}).slice(0, 300)}${body} [expected ${expected.verdict}]`;
}
