import type { Logger } from 'pino';
import type { AccountFiles } from '../files/account-files.js';
import type { BatchFinishes } from './batch-finishes.js';
import type { BatchStore } from './batch-store.js';
import type { BatchRecord, LineResult } from './batch-types.js';
import { isOutputLine, renderOpenAIBatchLine } from './render-openai-batch-line.js';
import { addAnswerUsage, emptyBatchUsage, type OpenAIBatchUsage } from './sum-openai-usage.js';

/** What finishing an OpenAI batch records (`batches.finish`). */
export interface OpenAIBatchFinish {
  outputFileId: string | null;
  errorFileId: string | null;
  usage: OpenAIBatchUsage;
}

/** The OpenAI fields the batch route keeps in the batch's metadata column. */
export interface OpenAIBatchFields {
  /** Seconds after their creation the output and error files expire (`output_expires_after`). */
  outputExpiresAfterSeconds?: number;
}

/** Line results read from the store per page while a file is written. */
const resultPage = 500;
/** Ended batches one round looks at. */
const roundLimit = 20;

/**
 * Writes an ended OpenAI batch's output and error files once (README, "Batches"): after every line has an
 * outcome, one instance claims the batch (store: `BatchFinishes`), streams the line results page by page into
 * the files (the output file the 2xx answers, the error file the rest), and records their IDs only if it
 * still holds the claim; an instance that lost it (it stalled past the lease) deletes what it wrote. Called
 * by the runner every round, so a batch that ended just before a restart is finished after it, and by the
 * batch routes when they read a batch that has ended, so a poll sees it completed without waiting a round.
 */
export class OpenAIBatchFinisher {
  constructor(
    private readonly deps: { store: BatchStore; finishes: BatchFinishes; files: AccountFiles; instanceId: string; leaseMs: number; logger: Logger },
  ) {}

  /** Finishes the ended OpenAI batches no instance is finishing (the runner's round). */
  async finishWaiting(now: number): Promise<void> {
    for (const batch of await this.deps.finishes.waiting('openai', now, roundLimit)) {
      await this.finish(batch.id, batch.accountId).catch((error: unknown) => this.deps.logger.error({ err: error, batch: batch.id }, 'writing the files of an OpenAI batch failed; tried again next round'));
    }
  }

  /** Finishes the batch now if it has ended and no instance is at it; resolves with the batch as it stands then. */
  async finish(id: string, accountId: string): Promise<BatchRecord | undefined> {
    const { store, finishes, files, instanceId, leaseMs, logger } = this.deps;
    const now = Date.now();
    if (!(await finishes.claim(id, instanceId, now, now + leaseMs))) return store.get(id, accountId);
    const batch = await store.get(id, accountId);
    if (!batch) return undefined;
    const fields = batch.metadata as OpenAIBatchFields;
    const spec = (kind: string) => ({
      filename: `${batch.id}_${kind}.jsonl`,
      purpose: 'batch_output' as const,
      ...(fields.outputExpiresAfterSeconds !== undefined && { expiresAt: Math.floor(Date.now() / 1000) + fields.outputExpiresAfterSeconds }),
    });
    const usage = emptyBatchUsage();
    const notOutput = batch.counts.errored + batch.counts.canceled + batch.counts.expired;
    const output = batch.counts.succeeded > 0 ? await files.writeFile(accountId, spec('output'), this.lines(batch, true, usage)) : undefined;
    const errors = notOutput > 0 ? await files.writeFile(accountId, spec('error'), this.lines(batch, false, usage)) : undefined;
    const finish: OpenAIBatchFinish = { outputFileId: output?.id ?? null, errorFileId: errors?.id ?? null, usage };
    if (!(await finishes.record(id, instanceId, { ...finish }, Date.now()))) {
      logger.warn({ batch: id }, 'another instance finished this OpenAI batch first; the files written here are removed');
      for (const file of [output, errors]) if (file) await files.delete(accountId, file.id);
    }
    return store.get(id, accountId);
  }

  /** The batch's lines for one file, read from the store a page at a time (never the whole batch in memory). */
  private async *lines(batch: BatchRecord, output: boolean, usage: OpenAIBatchUsage): AsyncGenerator<string> {
    for (let from = 0; from < batch.lineCount; from += resultPage) {
      const page: LineResult[] = await this.deps.store.results(batch.id, from, resultPage);
      for (const line of page) {
        if (isOutputLine(line) !== output) continue;
        if (line.outcome === 'succeeded' || line.outcome === 'errored') addAnswerUsage(usage, line.response);
        yield renderOpenAIBatchLine(batch.id, line);
      }
    }
  }
}
