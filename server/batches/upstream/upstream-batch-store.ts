import type { GatewayDb } from '../../store/database.js';

/** An upstream batch an instance has claimed to tend, with what it needs of its gateway batch. */
export interface ClaimedUpstreamBatch {
  id: string;
  batchId: string;
  model: string;
  providerId: string;
  upstreamModel: string;
  endpoint: string;
  upstreamInputFileId: string | null;
  upstreamId: string | null;
  upstreamStatus: string | null;
  cancelSentAt: number | null;
  /** Of the gateway's batch. */
  accountId: string;
  keyId: string;
  protocol: string;
  batchStatus: string;
  /** The gateway batch's `expires_at` (Unix ms). */
  expiresAt: number;
}

/**
 * The upstream batches that lines are forwarded to (models with `batch: upstream`), at rest: the intent is
 * inserted with the gateway's batch (BatchStore.create), and the upstream's IDs are recorded here as soon as
 * each is made. Each is tended by one instance at a time: a claim is a lease, as a line's is (BatchStore.claim),
 * taken by a conditional update that only one instance can win, and taken over once it has run out (its
 * instance died). Every record below is written only while `instance` still holds the claim.
 */
export class UpstreamBatchStore {
  constructor(private readonly db: GatewayDb) {}

  /**
   * Claims up to `limit` upstream batches not ended, due for a poll and held by no live lease, of gateway
   * batches whose lines are all stored (not `validating`: an OpenAI batch's lines come in pieces).
   */
  async claimDue(instance: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedUpstreamBatch[]> {
    const due = await this.db
      .selectFrom('upstream_batches')
      .innerJoin('batches', 'batches.id', 'upstream_batches.batch_id')
      .select('upstream_batches.id')
      .where('batches.status', '!=', 'validating')
      .where('upstream_batches.ended_at', 'is', null)
      .where('upstream_batches.next_poll_at', '<=', now)
      .where((eb) => eb.or([eb('upstream_batches.lease_until', 'is', null), eb('upstream_batches.lease_until', '<', now)]))
      .orderBy('upstream_batches.next_poll_at')
      .limit(limit)
      .execute();
    const claimed: ClaimedUpstreamBatch[] = [];
    for (const { id } of due) {
      const won = await this.db
        .updateTable('upstream_batches')
        .set({ claimed_by: instance, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) !== 1) continue;
      const row = await this.db
        .selectFrom('upstream_batches')
        .innerJoin('batches', 'batches.id', 'upstream_batches.batch_id')
        .selectAll('upstream_batches')
        .select(['batches.account_id', 'batches.key_id', 'batches.protocol', 'batches.status as batch_status', 'batches.expires_at'])
        .where('upstream_batches.id', '=', id)
        .executeTakeFirst();
      if (!row) continue;
      claimed.push({
        id: row.id,
        batchId: row.batch_id,
        model: row.model,
        providerId: row.provider_id,
        upstreamModel: row.upstream_model,
        endpoint: row.endpoint,
        upstreamInputFileId: row.upstream_input_file_id,
        upstreamId: row.upstream_id,
        upstreamStatus: row.upstream_status,
        cancelSentAt: row.cancel_sent_at === null ? null : Number(row.cancel_sent_at),
        accountId: row.account_id,
        keyId: row.key_id,
        protocol: row.protocol,
        batchStatus: row.batch_status,
        expiresAt: Number(row.expires_at),
      });
    }
    return claimed;
  }

  /** Extends the lease while `instance` works on the batch (a long upload or download). */
  async renew(id: string, instance: string, leaseUntil: number): Promise<void> {
    await this.db.updateTable('upstream_batches').set({ lease_until: leaseUntil }).where('id', '=', id).where('claimed_by', '=', instance).execute();
  }

  /**
   * Records what is known of the upstream batch (its input file, its ID, its status, that a cancel was sent),
   * and, with `releaseUntil`, gives the claim back until the next poll is due. False when the claim was lost.
   */
  async record(
    id: string,
    instance: string,
    fields: { upstreamInputFileId?: string; upstreamId?: string; upstreamStatus?: string | null; cancelSentAt?: number },
    nextPollAt?: number,
  ): Promise<boolean> {
    const updated = await this.db
      .updateTable('upstream_batches')
      .set({
        ...(fields.upstreamInputFileId !== undefined && { upstream_input_file_id: fields.upstreamInputFileId }),
        ...(fields.upstreamId !== undefined && { upstream_id: fields.upstreamId }),
        ...(fields.upstreamStatus !== undefined && { upstream_status: fields.upstreamStatus }),
        ...(fields.cancelSentAt !== undefined && { cancel_sent_at: fields.cancelSentAt }),
        ...(nextPollAt !== undefined && { next_poll_at: nextPollAt, claimed_by: null, lease_until: null }),
      })
      .where('id', '=', id)
      .where('claimed_by', '=', instance)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** Marks the upstream batch done: every line it had has an outcome, or was handed back to the gateway. */
  async end(id: string, instance: string, upstreamStatus: string, now: number): Promise<void> {
    await this.db
      .updateTable('upstream_batches')
      .set({ ended_at: now, upstream_status: upstreamStatus, claimed_by: null, lease_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', instance)
      .execute();
  }

  /** Makes the batch's upstream batches due now (a cancel was asked for: it goes upstream without waiting for the poll). */
  async dueNow(batchId: string, now: number): Promise<void> {
    await this.db.updateTable('upstream_batches').set({ next_poll_at: now }).where('batch_id', '=', batchId).where('ended_at', 'is', null).execute();
  }
}
