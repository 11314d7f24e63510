/**
 * The scripted fake's answer to a Responses request whose `input` ends in a `compaction_trigger` item, as
 * OpenAI's Responses API answers it: one `compaction` output item holding the conversation, encrypted and
 * opaque (OpenAI's `CompactionBody`: `type`, `id`, `encrypted_content`; test/fixtures/openai-spec/), and the
 * stream's `response.completed`. That is what Codex's remote compaction v2 requires ("exactly one compaction
 * output item", read from `response.output_item.done`, then `response.completed`;
 * codex-rs/core/src/compact_remote_v2.rs in openai/codex). Here the "encryption" is a mark the script knows,
 * so a later request that sends the item back is seen to carry the summary.
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { completedResponse } from './openai-responses-object.js';
import { COMPACTION_SUMMARY } from './script.js';

/** The item's `encrypted_content`: opaque to the client and the gateway, which must send it back as it is. */
export const SCRIPTED_COMPACTION_CONTENT = `scripted-compaction.${Buffer.from(COMPACTION_SUMMARY).toString('base64')}`;

export function asksForCompaction(request: RecordedRequest): boolean {
  const input = (request.json as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) && (input.at(-1) as { type?: unknown } | undefined)?.type === 'compaction_trigger';
}

export function compactionReply(request: RecordedRequest): FakeReply {
  const body = (request.json ?? {}) as { model?: string; stream?: boolean };
  const item = { id: 'cmp_scripted_1', type: 'compaction', encrypted_content: SCRIPTED_COMPACTION_CONTENT };
  const response = { ...completedResponse(body.model, [item]), id: 'resp_scripted_compaction' };
  if (body.stream !== true) return { json: response };
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  const events: Array<{ type: string } & Record<string, unknown>> = [
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response },
  ];
  return { sse: events.map((event, index) => ({ event: event.type, data: JSON.stringify({ ...event, sequence_number: index }) })) };
}
