// Keys made with POST /v1/keys share their maker's key-level counters, so minting keys cannot multiply a
// limit (issue 23: a key limited to 5 requests a minute got 20 through with 3 children; the same held for
// spend and concurrency).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { defaultConfig } from '../server/config/default-config.js';
import { adminApi } from './helpers/admin-api.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { myKeys } from './helpers/my-keys.js';
import { startGateway } from './helpers/start-gateway.js';

test('a family of minted keys stays within the requests per minute of the key that made it', async () => {
  const gateway = await startGateway();
  try {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'family' });
    const parent = await admin.createKey(account.id, { name: 'parent', limits: { requests_per_minute: 5 } });
    const child = await myKeys(gateway.origin, parent.key).mint('child');
    const grandchild = await myKeys(gateway.origin, child.key).mint('grandchild');
    const sibling = await myKeys(gateway.origin, parent.key).mint('sibling');
    assert.equal(parent.shares_limits_with, null);
    for (const minted of [child, grandchild, sibling]) assert.equal(minted.shares_limits_with, parent.id, 'every descendant counts against the first key');

    const keys = [parent.key, child.key, grandchild.key, sibling.key];
    await awayFromMinuteEdge();
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) {
      const client = new OpenAI({ apiKey: keys[index % keys.length], baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      statuses.push(
        await client.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hi' }] }).then(
          () => 200,
          (error: { status: number }) => error.status,
        ),
      );
    }
    assert.equal(statuses.filter((status) => status === 200).length, 5, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 15);
  } finally {
    await gateway.close();
  }
});

test('a minted key shares its maker’s concurrency slots', async () => {
  const config = { ...defaultConfig, providers: defaultConfig.providers.map((provider) => ({ ...provider, chunk_delay_ms: 50 })) };
  const gateway = await startGateway({ config });
  try {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'one at a time' });
    const parent = await admin.createKey(account.id, { name: 'parent', limits: { concurrent_requests: 1 } });
    const child = await myKeys(gateway.origin, parent.key).mint('child');
    const slow = await new OpenAI({ apiKey: parent.key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 }).chat.completions.create({
      model: 'builtin/echo',
      messages: [{ role: 'user', content: 'a reply long enough to still be streaming while the child asks' }],
      stream: true,
    });
    const iterator = slow[Symbol.asyncIterator]();
    await iterator.next();
    const childClient = new OpenAI({ apiKey: child.key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await assert.rejects(childClient.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hi' }] }), (error: { status?: number }) => error.status === 429);
    while (!(await iterator.next()).done);
    // The slot is freed when the gateway has closed the parent's response, a moment after its last byte.
    let freed = false;
    for (let attempt = 0; attempt < 50 && !freed; attempt++) {
      freed = await childClient.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hi' }] }).then(
        () => true,
        async () => (await sleep(20), false),
      );
    }
    assert.ok(freed, 'the child is served once the parent’s request is over');
  } finally {
    await gateway.close();
  }
});
