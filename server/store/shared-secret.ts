import { randomBytes } from 'node:crypto';
import type { GatewayDb } from './database.js';

/**
 * The store's secret called `name`, made on first use: every instance and worker on one store gets the
 * same one, whichever starts first. Each offers a random candidate with an insert that does nothing when
 * the row exists, then reads the row back, so a race between starting instances has one winner and no
 * loser sees anything but the winner's secret. Called at start-up; the store query is async.
 */
export async function sharedSecret(db: GatewayDb, name: string): Promise<string> {
  await db
    .insertInto('gateway_secrets')
    .values({ name, secret: randomBytes(32).toString('base64url'), created_at: Math.floor(Date.now() / 1000) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('gateway_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return row.secret;
}
