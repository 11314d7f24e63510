import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../server/store/database.js';
import { newUsageRecordId, type UsageRecord } from '../../server/usage/usage-record.js';
import { UsageStore } from '../../server/usage/usage-store.js';

const dayMs = 86_400_000;

/**
 * Writes a week of plausible past requests into a test gateway's usage ledger (its SQLite file, opened a
 * second time: WAL allows it), so the console's usage charts have days to draw. Only the README screenshot
 * wants this; the flows under test use real requests.
 */
export async function seedUsageHistory(dataDir: string, owner: { accountId: string; keyId: string }): Promise<void> {
  const db = await openDatabase({ dataDir });
  try {
    const records: UsageRecord[] = [];
    const now = Date.now();
    for (let daysAgo = 6; daysAgo >= 1; daysAgo--) {
      // A weekly shape with a mid-week peak, varied by day so the bars differ.
      const chats = 6 + ((daysAgo * 7) % 11) + (daysAgo === 3 ? 9 : 0);
      const images = (daysAgo * 3) % 4;
      for (let index = 0; index < chats; index++) records.push(chatRecord(now - daysAgo * dayMs - index * 600_000, owner, index));
      for (let index = 0; index < images; index++) records.push(imageRecord(now - daysAgo * dayMs - index * 900_000 - 300_000, owner));
    }
    await new UsageStore(db).insertMany(records);
  } finally {
    await db.destroy();
  }
}

function chatRecord(createdAt: number, owner: { accountId: string; keyId: string }, index: number): UsageRecord {
  const input = 180 + ((index * 137) % 900);
  const output = 60 + ((index * 89) % 500);
  return {
    ...base(createdAt, owner),
    model: 'builtin/echo',
    protocol: index % 3 === 0 ? 'anthropic-messages' : 'openai-chat',
    endpoint: index % 3 === 0 ? 'POST /v1/messages' : 'POST /v1/chat/completions',
    status: index % 13 === 5 ? 429 : 200,
    input_tokens: input,
    output_tokens: output,
    latency_ms: 300 + ((index * 53) % 900),
    cost_usd: (input * 0.5 + output * 1.5) / 1_000_000,
  };
}

function imageRecord(createdAt: number, owner: { accountId: string; keyId: string }): UsageRecord {
  return { ...base(createdAt, owner), model: 'builtin/image', protocol: 'openai-images', endpoint: 'POST /v1/images/generations', image_count: 1, latency_ms: 420, cost_usd: 0.02 };
}

function base(createdAt: number, owner: { accountId: string; keyId: string }): UsageRecord {
  return {
    id: newUsageRecordId(),
    created_at: createdAt,
    request_id: `req_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    account_id: owner.accountId,
    key_id: owner.keyId,
    model: null,
    deployment: null,
    protocol: 'openai-chat',
    endpoint: 'POST /v1/chat/completions',
    status: 200,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null,
    image_count: 0,
    latency_ms: 0,
    cost_usd: 0,
    estimated: false,
    completed: true,
  };
}
