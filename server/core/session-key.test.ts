import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { messagesProtocol } from '../protocols/anthropic-messages/messages-protocol.js';
import { geminiProtocol } from '../protocols/gemini/gemini-protocol.js';
import { chatProtocol } from '../protocols/openai-chat/chat-protocol.js';
import { responsesProtocol } from '../protocols/openai-responses/responses-protocol.js';
import { sessionKeyOf } from './session-key.js';

/** Responses declares every body field a session is read from (prompt_cache_key, conversation, metadata.user_id). */
const fields = responsesProtocol.sessionFields;

/** A recorded client request (test/fixtures/clients/README.md). */
const recorded = (file: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/clients/${file}`, import.meta.url), 'utf8')) as { headers: Record<string, string>; body: Record<string, unknown> };

describe('sessionKeyOf', () => {
  test("finds the session of each coding agent's recorded request", () => {
    const claude = recorded('claude-code/01-asks-for-tool.json');
    assert.equal(sessionKeyOf(claude.headers, claude.body, 'acct', messagesProtocol.sessionFields), 'acct\u00004a4400b3-7da4-46ef-b1df-c0ba43517e24');
    const codex = recorded('codex/01-asks-for-tool.json');
    assert.equal(sessionKeyOf(codex.headers, codex.body, 'acct', responsesProtocol.sessionFields), 'acct\u000001a21be9-a25b-7ff3-9c01-744558432e37');
    const opencode = recorded('opencode/02-asks-for-tool.json');
    assert.equal(sessionKeyOf(opencode.headers, opencode.body, 'acct', chatProtocol.sessionFields), 'acct\u0000ses_deb9dbe85ffeeKlMFQ4wRxCe2p');
    const gemini = recorded('gemini-cli/01-asks-for-tool.json');
    assert.equal(sessionKeyOf(gemini.headers, gemini.body, 'acct', geminiProtocol.sessionFields), undefined);
  });

  test('takes the sources in order: prompt_cache_key, conversation, session headers, metadata.user_id', () => {
    const headers = { 'x-claude-code-session-id': 'claude', 'session-id': 'codex', session_id: 'codex-old', 'x-session-affinity': 'opencode' };
    const body = { prompt_cache_key: 'pck', conversation: 'conv_1', metadata: { user_id: 'user' } };
    assert.equal(sessionKeyOf(headers, body, 'a', fields), 'a\u0000pck');
    assert.equal(sessionKeyOf(headers, { ...body, prompt_cache_key: undefined }, 'a', fields), 'a\u0000conv_1');
    assert.equal(sessionKeyOf(headers, { ...body, prompt_cache_key: undefined, conversation: { id: 'conv_2' } }, 'a', fields), 'a\u0000conv_2');
    const bodyWithoutIds = { metadata: body.metadata };
    assert.equal(sessionKeyOf(headers, bodyWithoutIds, 'a', fields), 'a\u0000claude');
    assert.equal(sessionKeyOf({ ...headers, 'x-claude-code-session-id': undefined }, bodyWithoutIds, 'a', fields), 'a\u0000codex');
    assert.equal(sessionKeyOf({ session_id: 'codex-old', 'x-session-affinity': 'opencode' }, bodyWithoutIds, 'a', fields), 'a\u0000codex-old');
    assert.equal(sessionKeyOf({ 'x-session-affinity': 'opencode' }, bodyWithoutIds, 'a', fields), 'a\u0000opencode');
    assert.equal(sessionKeyOf({}, bodyWithoutIds, 'a', fields), 'a\u0000user');
  });

  test('ignores what is no usable ID: empty, not a string, too long', () => {
    assert.equal(sessionKeyOf({}, { prompt_cache_key: '', conversation: { id: 7 }, metadata: { user_id: null } }, 'a', fields), undefined);
    assert.equal(sessionKeyOf({ 'session-id': 'x'.repeat(513) }, { prompt_cache_key: 42 }, 'a', fields), undefined);
    assert.equal(sessionKeyOf({}, undefined, 'a', fields), undefined);
    assert.equal(sessionKeyOf({}, { prompt_cache_key: 'x'.repeat(512) }, 'a', fields), `a\u0000${'x'.repeat(512)}`);
  });

  test('reads the body fields its client protocol declares, and no others', () => {
    const body = { prompt_cache_key: 'pck', conversation: 'conv', metadata: { user_id: 'user' } };
    assert.equal(sessionKeyOf({}, body, 'a', chatProtocol.sessionFields), 'a\u0000pck');
    assert.equal(sessionKeyOf({}, { ...body, prompt_cache_key: undefined }, 'a', chatProtocol.sessionFields), 'a\u0000user');
    assert.equal(sessionKeyOf({}, body, 'a', messagesProtocol.sessionFields), 'a\u0000user');
    assert.equal(sessionKeyOf({}, body, 'a', geminiProtocol.sessionFields), undefined);
  });

  test('is scoped by account', () => {
    assert.notEqual(sessionKeyOf({}, { prompt_cache_key: 's' }, 'acct_1', fields), sessionKeyOf({}, { prompt_cache_key: 's' }, 'acct_2', fields));
  });
});
