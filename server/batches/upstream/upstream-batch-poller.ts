import type { Logger } from 'pino';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import { randomString } from '../../core/random-string.js';
import type { ForwardedRequests, UpstreamBatchApi, UpstreamBatchState } from '../../providers/upstream-batch-api.js';
import { removeScratchLeftovers } from '../../providers/upstream/scratch-file.js';
import type { BatchStore } from '../batch-store.js';
import { forwardedLineRow } from './forwarded-line-row.js';
import type { ClaimedUpstreamBatch, UpstreamBatchStore } from './upstream-batch-store.js';

export interface UpstreamBatchPollerOptions {
  batches: BatchStore;
  upstream: UpstreamBatchStore;
  registry: ModelRegistry;
  logger: Logger;
  /** The runner's: claims name the same instance. */
  instanceId: string;
  /** `batches.lease_seconds` in ms. */
  leaseMs: number;
  /** `batches.upstream_poll_interval_ms`. */
  pollIntervalMs: number;
  /** Tells the runner lines were handed back to it. */
  wake(): void;
  /**
   * Where a batch's requests are written out before they are sent (OpenAI's upload, Anthropic's create body),
   * one file at a time per upstream batch, removed once sent: under the gateway's data directory.
   */
  scratchDirectory: string;
}

/**
 * How long a scratch file may go untouched before the first tend of a process removes it as a leftover of a
 * process killed mid-send: far longer than any send, so never one another instance is still sending.
 */
const scratchLeftoverMs = 24 * 3_600_000;

/** Upstream batches one instance tends at once. */
const concurrency = 4;

/**
 * How long past the gateway batch's expiry an upstream batch is still waited for: the upstream's own window
 * (24 h at OpenAI and Anthropic) started when it was created, a little after the gateway's. Past it the lines
 * are expired even if the upstream never answers again (unreachable, or its key revoked).
 */
const expiryGraceMs = 3_600_000;

/**
 * Tends the upstream batches that batch lines were forwarded to (models with `batch: upstream`), from the
 * batch runner's rounds: creates each upstream batch, polls it, forwards a cancel, and once it has ended
 * records each line's outcome with its ledger row (BatchStore.recordOutcome, one transaction, as a line the
 * gateway runs). An upstream batch is tended by the instance holding its lease (UpstreamBatchStore), so after a
 * restart or an instance's death another takes it over and polls the same upstream batch.
 *
 * Never a second upstream batch for the same lines: the intent is in the store before anything is sent, the
 * input file's ID and then `creating` are recorded before the create, and the batch's ID as soon as it is
 * answered. A crash between the create and its record leaves `creating` without an ID: the next tender then
 * looks for the batch by the tag it was created with (OpenAI keeps it in `metadata`) and adopts it, or creates
 * it if the upstream has none; where the API keeps no metadata (Anthropic), it cannot tell, so it errors the
 * lines (saying why) rather than risk running them twice. Polling reads statuses only: it bills nothing.
 */
export class UpstreamBatchPoller {
  private readonly tending = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private leftoversRemoved = false;

  constructor(private readonly options: UpstreamBatchPollerOptions) {}

  /** Claims the upstream batches due and starts tending them; does not wait for them. */
  async tend(now: number): Promise<void> {
    if (!this.leftoversRemoved) {
      this.leftoversRemoved = true;
      await removeScratchLeftovers(this.options.scratchDirectory, Date.now() - scratchLeftoverMs).catch((error: unknown) => {
        this.options.logger.warn({ err: error, directory: this.options.scratchDirectory }, 'removing leftover scratch files failed');
      });
    }
    const room = concurrency - this.tending.size;
    if (room <= 0 || this.abort.signal.aborted) return;
    const claimed = await this.options.upstream.claimDue(this.options.instanceId, now, now + this.options.leaseMs, room);
    for (const batch of claimed) {
      if (this.tending.has(batch.id)) continue;
      const done = this.tendOne(batch).finally(() => this.tending.delete(batch.id));
      this.tending.set(batch.id, done);
    }
  }

  /** Stops tending: calls in flight are aborted, and what they had not recorded waits for the next tender. */
  async stop(): Promise<void> {
    this.abort.abort(new Error('the gateway is stopping'));
    await Promise.allSettled(this.tending.values());
  }

  private async tendOne(batch: ClaimedUpstreamBatch): Promise<void> {
    const { upstream, instanceId, leaseMs, logger } = this.options;
    const renew = setInterval(() => void upstream.renew(batch.id, instanceId, Date.now() + leaseMs).catch(() => {}), Math.max(250, Math.floor(leaseMs / 3)));
    try {
      const api = this.options.registry.all().flatMap((model) => model.deployments).find((deployment) => deployment.provider.id === batch.providerId)?.provider.batches;
      if (Date.now() > batch.expiresAt + expiryGraceMs) return await this.expire(batch, api);
      if (!api) {
        // The provider left the config (or lost its batch API) before the batch went upstream: the gateway runs the lines.
        if (batch.upstreamId === null) return await this.handBack(batch, 'provider_gone');
        throw new Error(`provider '${batch.providerId}' is no longer configured; upstream batch left for when it is`);
      }
      if (batch.upstreamId === null) return await this.submit(batch, api);
      await this.poll(batch, batch.upstreamId, api);
    } catch (error) {
      // Stopping: the claim is given back at once, for the next start or another instance.
      if (this.abort.signal.aborted) return void (await upstream.record(batch.id, instanceId, {}, Date.now()).catch(() => {}));
      logger.warn({ err: error, batch: batch.batchId, upstreamBatch: batch.id }, 'tending an upstream batch failed; tried again at the next poll');
      await upstream.record(batch.id, instanceId, {}, Date.now() + this.options.pollIntervalMs).catch(() => {});
    } finally {
      clearInterval(renew);
    }
  }

  /** Sends the lines upstream as one batch, unless it exists already (see the class's comment). */
  private async submit(batch: ClaimedUpstreamBatch, api: UpstreamBatchApi): Promise<void> {
    const { batches, upstream, instanceId } = this.options;
    const signal = this.abort.signal;
    if (batch.batchStatus !== 'in_progress' || (await batches.forwardedLineIds(batch.batchId, batch.id, 1)).length === 0) {
      // Canceled before it went upstream: nothing was sent, and nothing runs.
      for (const line of await batches.forwardedLineIds(batch.batchId, batch.id)) await batches.recordUnanswered({ batchId: batch.batchId, position: line.position }, 'canceled', Date.now());
      return upstream.end(batch.id, instanceId, 'not_created', Date.now());
    }
    let upstreamId: string | undefined;
    if (batch.upstreamStatus === 'creating') {
      if (!api.find) {
        const message = "The gateway stopped while forwarding this request to the upstream's batch API and cannot tell whether the upstream took it, so it is not sent again (it could run twice). Submit it again if its result is needed.";
        for (const line of await batches.forwardedLineIds(batch.batchId, batch.id)) {
          await batches.recordUnanswered({ batchId: batch.batchId, position: line.position }, 'errored', Date.now(), { statusCode: 500, response: this.errorBody(batch, message) });
        }
        this.options.logger.warn({ batch: batch.batchId, upstreamBatch: batch.id, provider: batch.providerId }, 'an upstream batch was being created when its instance stopped; its lines are errored rather than sent twice');
        return upstream.end(batch.id, instanceId, 'unknown', Date.now());
      }
      upstreamId = await api.find(batch.id, signal);
    }
    if (upstreamId === undefined) {
      const requests = this.requestsOf(batch);
      let inputFileId = batch.upstreamInputFileId ?? undefined;
      if (api.upload && inputFileId === undefined) {
        try {
          inputFileId = await api.upload(requests, batch.endpoint, signal);
        } catch (error) {
          // A file the upstream refuses (over its size limit, say) would be refused again at every poll until
          // the batch expired: its lines run in the gateway instead. Anything else is tried again later.
          if (refusedByUpstream(error)) return this.handBack(batch, 'upload_refused', error);
          throw error;
        }
        await upstream.record(batch.id, instanceId, { upstreamInputFileId: inputFileId });
      }
      await upstream.record(batch.id, instanceId, { upstreamStatus: 'creating' });
      try {
        upstreamId = await api.create({ requests, endpoint: batch.endpoint, ...(inputFileId !== undefined && { inputFileId }), tag: batch.id }, signal);
      } catch (error) {
        // The upstream answered, so it made nothing: refused (4xx), its lines run in the gateway; else try again later.
        if (refusedByUpstream(error)) return this.handBack(batch, 'refused', error);
        if (error instanceof GatewayError && error.upstream?.status !== undefined) await upstream.record(batch.id, instanceId, { upstreamStatus: null });
        throw error;
      }
    }
    await upstream.record(batch.id, instanceId, { upstreamId, upstreamStatus: 'created' }, Date.now() + this.options.pollIntervalMs);
  }

  private async poll(batch: ClaimedUpstreamBatch, upstreamId: string, api: UpstreamBatchApi): Promise<void> {
    const { upstream, instanceId } = this.options;
    const signal = this.abort.signal;
    let cancelSentAt = batch.cancelSentAt;
    if (batch.batchStatus === 'canceling' && cancelSentAt === null) {
      await api.cancel(upstreamId, signal);
      cancelSentAt = Date.now();
      await upstream.record(batch.id, instanceId, { cancelSentAt });
    }
    const state = await api.state(upstreamId, signal);
    if (!state.ended) {
      await upstream.record(batch.id, instanceId, { upstreamStatus: state.status }, Date.now() + this.options.pollIntervalMs);
      return;
    }
    // The upstream refused the batch whole (OpenAI's `failed`: its input did not validate): the gateway runs the lines.
    if (state.failure !== undefined) return this.handBack(batch, 'failed', new Error(state.failure));
    await this.collect(batch, upstreamId, api, state, cancelSentAt !== null);
  }

  /** Records each line's result with its ledger row, then ends the lines the upstream left without one. */
  private async collect(batch: ClaimedUpstreamBatch, upstreamId: string, api: UpstreamBatchApi, state: UpstreamBatchState, canceled: boolean): Promise<void> {
    const { batches, upstream, instanceId, registry } = this.options;
    const open = new Map((await batches.forwardedLineIds(batch.batchId, batch.id)).map((line) => [line.customId, line.position]));
    const pricing = registry.find(batch.model)?.pricing;
    for await (const result of api.results(upstreamId, this.abort.signal)) {
      const position = open.get(result.customId);
      if (position === undefined) continue;
      open.delete(result.customId);
      const line = { batchId: batch.batchId, position };
      const now = Date.now();
      if ((result.outcome === 'succeeded' || result.outcome === 'errored') && result.statusCode !== null && result.body !== null) {
        const requestId = `req_${randomString(12)}`;
        const row = forwardedLineRow(batch, { statusCode: result.statusCode, requestId, ...(result.usage && { usage: result.usage }) }, pricing, now);
        await batches.recordOutcome(line, { outcome: result.outcome, statusCode: result.statusCode, requestId, response: asGatewayModel(result.body, batch.model) }, row, now);
      } else {
        await batches.recordUnanswered(line, result.outcome === 'succeeded' || result.outcome === 'errored' ? 'errored' : result.outcome, now);
      }
    }
    const rest = state.status === 'expired' ? 'expired' : canceled || state.status === 'cancelled' ? 'canceled' : 'errored';
    for (const position of open.values()) {
      const line = { batchId: batch.batchId, position };
      if (rest === 'errored') await batches.recordUnanswered(line, 'errored', Date.now(), { statusCode: 500, response: this.errorBody(batch, "The upstream's batch ended without a result for this request.") });
      else await batches.recordUnanswered(line, rest, Date.now());
    }
    await upstream.end(batch.id, instanceId, state.status, Date.now());
  }

  /** Ends the lines the upstream has not answered long after the batch expired; the upstream batch is cancelled if it can be. */
  private async expire(batch: ClaimedUpstreamBatch, api: UpstreamBatchApi | undefined): Promise<void> {
    if (api && batch.upstreamId !== null) await api.cancel(batch.upstreamId, this.abort.signal).catch(() => {});
    for (const line of await this.options.batches.forwardedLineIds(batch.batchId, batch.id)) {
      await this.options.batches.recordUnanswered({ batchId: batch.batchId, position: line.position }, 'expired', Date.now());
    }
    await this.options.upstream.end(batch.id, this.options.instanceId, 'expired', Date.now());
  }

  /** The lines to send, read a page at a time each time they are iterated, each named by the upstream's model. */
  private requestsOf(batch: ClaimedUpstreamBatch): ForwardedRequests {
    const { batches, scratchDirectory } = this.options;
    return {
      scratchDirectory,
      async *pages() {
        for await (const page of batches.forwardedLinePages(batch.batchId, batch.id)) {
          yield page.map((line) => ({ customId: line.customId, body: { ...(JSON.parse(line.body) as Record<string, unknown>), model: batch.upstreamModel } }));
        }
      },
    };
  }

  /** Gives the lines to the gateway's runner: they run as any line, with the gateway's checks, routing and errors. */
  private async handBack(batch: ClaimedUpstreamBatch, why: string, error?: unknown): Promise<void> {
    this.options.logger.warn({ err: error, batch: batch.batchId, upstreamBatch: batch.id, provider: batch.providerId, why }, 'lines not forwarded upstream run in the gateway');
    await this.options.batches.handBackToGateway(batch.id);
    await this.options.upstream.end(batch.id, this.options.instanceId, why, Date.now());
    this.options.wake();
  }

  /** An error body in the batch's protocol's shape. */
  private errorBody(batch: ClaimedUpstreamBatch, message: string): string {
    return JSON.stringify(batch.protocol === 'anthropic' ? { type: 'error', error: { type: 'api_error', message } } : { error: { message, type: 'server_error', param: null, code: null } });
  }
}

/** The answer naming the model as the client named it, not the upstream's name for it. */
function asGatewayModel(body: string, model: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.model !== 'string') return body;
    return JSON.stringify({ ...parsed, model });
  } catch {
    return body;
  }
}

/** Whether the upstream answered a call with a 4xx: it took nothing, and would refuse the same call again. */
function refusedByUpstream(error: unknown): boolean {
  const status = error instanceof GatewayError ? error.upstream?.status : undefined;
  return status !== undefined && status >= 400 && status < 500;
}
