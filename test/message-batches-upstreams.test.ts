// Message Batches on every upstream type of the profile table (helpers/upstream-profiles): each line runs as the
// same POST /v1/messages would, forwarded to the providers that speak Messages and translated for the others, so
// the results hold what the Anthropic SDK reads from that upstream's answer, and each line is one upstream call
// and one ledger row with the batch's ID.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import type { components } from '../generated/api.js';
import { textAnswer, upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';
import { ended, resultsOf } from './helpers/message-batches.js';

type UsageRecord = components['schemas']['UsageRecord'];

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`Message Batches over a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    before(async () => (setup = await profile.start()));
    after(() => setup.close());

    test('messages.batches: create, retrieve, results, cancel of an ended batch, delete', async () => {
      const client = new Anthropic({ apiKey: setup.gateway.apiKey, baseURL: setup.gateway.origin, maxRetries: 0 });
      const answer = side && textAnswer(side, 'messages', false);
      const callsBefore = setup.upstream?.requests.length ?? 0;
      if (answer) setup.upstream!.enqueue(answer.reply, answer.reply);
      const created = await client.messages.batches.create({
        requests: ['one', 'two'].map((id) => ({ custom_id: id, params: { model: setup.model, max_tokens: 256, messages: [{ role: 'user' as const, content: `Hello ${id}` }] } })),
      });
      const batch = await ended(client, created.id);
      assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 2, errored: 0, canceled: 0, expired: 0 });
      const results = await resultsOf(client, created.id);
      for (const id of ['one', 'two']) {
        const result = results.get(id)!;
        assert.equal(result.type, 'succeeded', JSON.stringify(result));
        if (result.type !== 'succeeded') continue;
        const text = result.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        assert.equal(text, answer ? answer.text : `You said: Hello ${id}`);
      }
      if (setup.upstream) assert.equal(setup.upstream.requests.length - callsBefore, 2, 'one upstream call per line');
      const response = await fetch(`${setup.gateway.origin}/v1/usage/records?limit=100`, { headers: { authorization: `Bearer ${setup.gateway.apiKey}` } });
      const rows = ((await response.json()) as { data: UsageRecord[] }).data.filter((row) => row.batch_id === created.id);
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.status === 200 && row.model === setup.model));
      // Canceling an ended batch changes nothing; deleting it does.
      const canceled = await client.messages.batches.cancel(created.id);
      assert.equal(canceled.processing_status, 'ended');
      assert.equal(canceled.cancel_initiated_at, null);
      await client.messages.batches.delete(created.id);
    });
  });
}
