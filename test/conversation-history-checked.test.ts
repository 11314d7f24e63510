// A conversation's items are history brought in by reference, so a narrowed key's turn in a conversation
// is checked as if it had sent them in `input` (as `previous_response_id` chains are, in
// history-checked-like-body.test.ts): the refusal names `conversation[i]`, and the refused turn adds
// nothing to the conversation. Anyone of the account may add items (as at OpenAI); using them is what is checked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminApi } from './helpers/admin-api.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
const keys = { wide: '', none: '', tools: '' };

before(async () => {
  gateway = await startGateway();
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name: 'team' });
  keys.wide = (await admin.createKey(account.id, { name: 'wide' })).key;
  keys.none = (await admin.createKey(account.id, { name: 'none', permissions: { capabilities: [] } })).key;
  keys.tools = (await admin.createKey(account.id, { name: 'tools', permissions: { capabilities: ['tools'] } })).key;
});
after(() => gateway.close());

async function send(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${gateway.origin}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

test("a conversation holding a hosted tool's call is refused to a key without tools, naming the item; a key with them is served", async () => {
  const call = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'gateway' } };
  const answer = { type: 'message', role: 'assistant', content: 'Found it.' };
  const created = await send(keys.wide, 'POST', '/conversations', { items: [{ type: 'message', role: 'user', content: 'Look it up.' }, call, answer] });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.id as string;

  const direct = await send(keys.none, 'POST', '/responses', { model: 'builtin/echo', input: [call] });
  const refused = await send(keys.none, 'POST', '/responses', { model: 'builtin/echo', input: 'And then?', conversation: id });
  assert.equal(direct.status, 403, JSON.stringify(direct.body));
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.equal(refused.body.error.code, direct.body.error.code);
  assert.equal(refused.body.error.message, direct.body.error.message.replace("'input[0]", "'conversation[1]"));
  assert.match(refused.body.error.message, /'conversation\[1\]/);
  const items = await send(keys.wide, 'GET', `/conversations/${id}/items`);
  assert.equal(items.body.data.length, 3, 'the refused turn added nothing');

  const served = await send(keys.tools, 'POST', '/responses', { model: 'builtin/echo', input: 'And then?', conversation: { id } });
  assert.equal(served.status, 200, JSON.stringify(served.body));
  assert.equal((await send(keys.wide, 'GET', `/conversations/${id}/items`)).body.data.length, 5);
});
