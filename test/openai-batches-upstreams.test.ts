// OpenAI Batches on every upstream type of the profile table (helpers/upstream-profiles): each line runs as the
// same POST /v1/chat/completions would, forwarded to the providers that speak Chat Completions and translated
// for the others, so the output file holds what the `openai` SDK reads from that upstream's answer, and each
// line is one upstream call and one ledger row with the batch's ID.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { components } from '../generated/api.js';
import { chatLine, fileLines, openAIBatchClient, settled, uploadBatchInput } from './helpers/openai-batches.js';
import { textAnswer, upstreamProfiles, type ProfileSetup } from './helpers/upstream-profiles/index.js';

type UsageRecord = components['schemas']['UsageRecord'];

for (const profile of upstreamProfiles) {
  const side = profile.upstream;
  describe(`OpenAI Batches over a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    before(async () => (setup = await profile.start()));
    after(() => setup.close());

    test('files.create, batches.create, retrieve, list, files.content of the output, cancel of an ended batch', async () => {
      const client = openAIBatchClient(setup.gateway, setup.gateway.apiKey);
      const answer = side && textAnswer(side, 'chat', false);
      const callsBefore = setup.upstream?.requests.length ?? 0;
      if (answer) setup.upstream!.enqueue(answer.reply, answer.reply);
      const input = await uploadBatchInput(client, ['one', 'two'].map((id) => chatLine(id, setup.model, { max_tokens: 256 })));
      const created = await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' });
      const batch = await settled(client, created.id);
      assert.equal(batch.status, 'completed');
      assert.deepEqual(batch.request_counts, { total: 2, completed: 2, failed: 0 });
      assert.equal(batch.error_file_id, null);
      const output = await fileLines(client, batch.output_file_id);
      for (const id of ['one', 'two']) {
        const line = output.get(id);
        assert.equal(line?.response?.status_code, 200, JSON.stringify(line));
        assert.equal(line?.response?.body.choices[0].message.content, answer ? answer.text : `You said: Hello ${id}`);
      }
      if (setup.upstream) assert.equal(setup.upstream.requests.length - callsBefore, 2, 'one upstream call per line');
      const response = await fetch(`${setup.gateway.origin}/v1/usage/records?limit=100`, { headers: { authorization: `Bearer ${setup.gateway.apiKey}` } });
      const rows = ((await response.json()) as { data: UsageRecord[] }).data.filter((row) => row.batch_id === created.id);
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.status === 200 && row.model === setup.model));
      assert.ok((await client.batches.list()).data.some((each) => each.id === created.id));
      assert.equal((await client.batches.cancel(created.id)).status, 'completed');
    });
  });
}
