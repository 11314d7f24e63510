// A narrowed key's Responses history is checked like its body: items brought in by `item_reference` or by
// the conversation of `previous_response_id` (stored by a wider key of the same account) get the verdict
// the same items get when sent directly, and nothing refused reaches the upstream.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixturePath } from './helpers/upstream-fixtures.js';
import { tinyPng, upstreamKey } from './helpers/upstream-gateway.js';

type Item = Record<string, unknown>;
interface Answer {
  status: number;
  body: { id?: string; error?: { message: string; code: string | null; param: string | null } };
}

let upstream: FakeUpstream;
let gateway: TestGateway;
/** Keys of one account: `wide` has no permissions of its own; the others narrow the capabilities. */
const keys: Record<'wide' | 'none' | 'tools' | 'toolsAndVision', string> = { wide: '', none: '', tools: '', toolsAndVision: '' };

const textAnswer = JSON.parse(readFileSync(fixturePath('openai-responses/non-stream-text.json'), 'utf8')) as Item;
const screenshot = { type: 'computer_screenshot', image_url: tinyPng };

before(async () => {
  upstream = await startFakeUpstream();
  const config = configSchema.parse({
    providers: [{ id: 'openai-native', type: 'openai', api: 'responses', base_url: `${upstream.origin}/v1`, api_key: upstreamKey }],
    models: [{ id: 'gpt-native', provider: 'openai-native', upstream_model: 'gpt-5.5' }],
  });
  gateway = await startGateway({ config });
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name: 'team' });
  keys.wide = (await admin.createKey(account.id, { name: 'wide' })).key;
  keys.none = (await admin.createKey(account.id, { name: 'none', permissions: { capabilities: [] } })).key;
  keys.tools = (await admin.createKey(account.id, { name: 'tools', permissions: { capabilities: ['tools'] } })).key;
  keys.toolsAndVision = (await admin.createKey(account.id, { name: 'tools-vision', permissions: { capabilities: ['tools', 'vision'] } })).key;
});
after(async () => {
  await gateway.close();
  await upstream.close();
});

/** `POST /v1/responses` with the upstream answering `output` (a plain text answer unless given). */
async function respond(key: string, body: Item, output?: Item[]): Promise<Answer> {
  upstream.enqueue({ json: { ...textAnswer, id: `resp_${Math.random().toString(36).slice(2)}`, ...(output && { output }) } });
  const response = await fetch(`${gateway.origin}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-native', ...body }),
  });
  const answer = { status: response.status, body: (await response.json()) as Answer['body'] };
  upstream.discardQueued();
  return answer;
}

/** Stored by the wide key: its id, for `previous_response_id`. */
async function stored(input: Item[], output?: Item[]): Promise<string> {
  const answer = await respond(keys.wide, { input }, output);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.id!;
}

/** Sends as the key, and checks that a refusal sent nothing upstream. */
async function refusedOrServed(key: string, body: Item): Promise<Answer> {
  const before = upstream.requests.length;
  const answer = await respond(key, body);
  if (answer.status === 403) assert.equal(upstream.requests.length, before, `refused, yet forwarded: ${JSON.stringify(upstream.requests.at(-1)?.json)}`);
  return answer;
}

describe("the issue's reproductions: a key with capabilities: [] and items a wider key stored", () => {
  const hostedCalls = [
    { type: 'web_search_call', id: 'ws_repro', status: 'completed', action: { type: 'search', query: 'gateway' } },
    { type: 'image_generation_call', id: 'ig_repro', status: 'completed', result: tinyPng.split(',')[1] },
  ];
  let conversation: string;

  before(async () => {
    const earlier = await stored([{ type: 'computer_call_output', id: 'cuo_repro', call_id: 'call_1', output: screenshot }]);
    // The model used hosted tools on the wide key's turn: their calls are in the stored output.
    const turn = await respond(keys.wide, { previous_response_id: earlier, input: 'Search and draw.' }, [...hostedCalls, ...(textAnswer.output as Item[])]);
    assert.equal(turn.status, 200, JSON.stringify(turn.body));
    conversation = turn.body.id!;
  });

  for (const id of ['cuo_repro', 'ws_repro', 'ig_repro']) {
    test(`an item_reference to ${id} is refused as the item itself is`, async () => {
      const answer = await refusedOrServed(keys.none, { input: [{ type: 'item_reference', id }] });
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error?.code, 'capability_not_permitted');
      assert.equal(answer.body.error?.message, 'This API key may not use tools (asked for by \'input[0]\').');
    });
  }

  test('previous_response_id onto the conversation that holds them is refused, naming the first', async () => {
    const answer = await refusedOrServed(keys.none, { previous_response_id: conversation, input: 'Go on.' });
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.equal(answer.body.error?.message, "This API key may not use tools (asked for by 'previous_response_id[0]').");
  });

  test('previous_response_id onto a conversation that named them by item_reference, from outside the chain', async () => {
    const referring = await stored([{ type: 'item_reference', id: 'ig_repro' }]);
    const answer = await refusedOrServed(keys.none, { previous_response_id: referring, input: 'Go on.' });
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.equal(answer.body.error?.message, "This API key may not use tools (asked for by 'previous_response_id[0]').");
    // Resolving the chain's own references is what lets a wider key continue it at all (it was a 400).
    assert.equal((await refusedOrServed(keys.wide, { previous_response_id: referring, input: 'Go on.' })).status, 200);
  });
});

/** Items of every kind of verdict: plain history, tools, vision, and both. */
const items: fc.Arbitrary<Item> = fc.constantFrom<Item>(
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'plain' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: tinyPng, detail: 'low' }] },
  { type: 'function_call_output', call_id: 'call_f', output: 'done' },
  { type: 'function_call_output', call_id: 'call_f', output: [{ type: 'input_image', image_url: tinyPng }] },
  { type: 'computer_call_output', call_id: 'call_c', output: screenshot },
  { type: 'image_generation_call', status: 'completed', result: tinyPng.split(',')[1] },
  { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } },
  { type: 'file_search_call', status: 'completed', queries: ['q'] },
  { type: 'code_interpreter_call', status: 'completed', code: 'print(1)', container_id: 'cntr_1', outputs: [] },
);

describe('property: an item gets the same verdict however it is brought in', () => {
  test('direct, by item_reference, or by a previous_response_id chain of one or two turns', { timeout: 120_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        items,
        fc.constantFrom<keyof typeof keys>('none', 'tools', 'toolsAndVision'),
        fc.nat({ max: 2 }),
        fc.boolean(),
        async (item, keyName, before, twoTurns) => {
          const key = keys[keyName];
          const id = `item_${(run += 1)}_${Math.random().toString(36).slice(2)}`;
          const prefix = Array.from({ length: before }, () => ({ role: 'user', content: 'Before.' }));
          const withId = { ...item, id };
          let previous = await stored([...prefix, withId]);
          if (twoTurns) previous = (await respond(keys.wide, { previous_response_id: previous, input: 'And then?' })).body.id!;

          const direct = await refusedOrServed(key, { input: [...prefix, withId] });
          const referenced = await refusedOrServed(key, { input: [...prefix, { type: 'item_reference', id }] });
          const chained = await refusedOrServed(key, { previous_response_id: previous, input: 'Go on.' });
          const label = `${keyName} ${JSON.stringify(item)} (${before} before${twoTurns ? ', two turns' : ''})`;
          assert.ok([200, 403].includes(direct.status), `${label}: ${direct.status} ${JSON.stringify(direct.body)}`);
          assert.equal(referenced.status, direct.status, `${label} by item_reference: ${JSON.stringify(referenced.body)}`);
          assert.equal(referenced.body.error?.message, direct.body.error?.message, label);
          assert.equal(chained.status, direct.status, `${label} by previous_response_id: ${JSON.stringify(chained.body)}`);
          assert.equal(chained.body.error?.message, direct.body.error?.message.replace(`input[${before}]`, `previous_response_id[${before}]`), label);
        },
      ),
      { seed: 34, numRuns: 40, endOnFailure: true },
    );
  });
});
