import type { GatewayDb } from '../store/database.js';

/**
 * Finishing an ended batch (what its protocol does once every line has an outcome: OpenAI writes its output
 * and error files), done exactly once across instances and restarts: an instance claims it for a lease, does
 * the work, and records it only while it still holds the claim; a claim whose lease ran out (its instance
 * died) is taken again.
 */
export class BatchFinishes {
  constructor(private readonly db: GatewayDb) {}

  /** Claims the ended, unfinished batch for `instance` until `leaseUntil`; false when finished or claimed by a live lease. */
  async claim(id: string, instance: string, now: number, leaseUntil: number): Promise<boolean> {
    const claimed = await this.db
      .updateTable('batches')
      .set({ finish_claimed_by: instance, finish_lease_until: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'ended')
      .where('finished_at', 'is', null)
      .where((eb) => eb.or([eb('finish_lease_until', 'is', null), eb('finish_lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Records what finishing produced, if `instance` still holds the claim; false when it lost it (the work is another's). */
  async record(id: string, instance: string, finish: Record<string, unknown>, now: number): Promise<boolean> {
    const recorded = await this.db
      .updateTable('batches')
      .set({ finished_at: now, finish: JSON.stringify(finish), finish_lease_until: null })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where('finish_claimed_by', '=', instance)
      .executeTakeFirst();
    return Number(recorded.numUpdatedRows) === 1;
  }

  /** Up to `limit` ended batches of `protocol` not finished and not held by a live claim, oldest first. */
  async waiting(protocol: string, now: number, limit: number): Promise<Array<{ id: string; accountId: string }>> {
    const rows = await this.db
      .selectFrom('batches')
      .select(['id', 'account_id'])
      .where('status', '=', 'ended')
      .where('protocol', '=', protocol)
      .where('finished_at', 'is', null)
      .where((eb) => eb.or([eb('finish_lease_until', 'is', null), eb('finish_lease_until', '<', now)]))
      .orderBy('ended_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, accountId: row.account_id }));
  }
}
