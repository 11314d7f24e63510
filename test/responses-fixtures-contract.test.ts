// The Responses schemas against real OpenAI traffic (test/fixtures/upstream-recorded/openai-responses/): every
// recorded stream event must match `ResponsesStreamEvent`, every recorded response `ResponsesResponse` and
// every recorded error body `OpenAIError`, as the gateway forwards them: with what OpenAI's published spec
// requires and the recording lacks filled in (server/protocols/openai-responses/complete-forwarded-answer.ts).
// When a recording fails here the spec is wrong, not the recording.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, test } from 'node:test';
import { completeResponse, FunctionCallNames } from '../server/protocols/openai-responses/complete-forwarded-answer.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { fixtureChunks, fixtureJson, fixturePath } from './helpers/upstream-fixtures.js';

const folder = 'openai-responses';
const files = readdirSync(dirname(fixturePath(`${folder}/non-stream-text.json`))).sort();
const streams = files.filter((name) => name.endsWith('.chunks.txt'));
const bodies = files.filter((name) => name.endsWith('.json') && !name.endsWith('.request.json'));

type Event = { type: string; sequence_number: number; response?: unknown; item?: { type: string } };

describe('recorded OpenAI Responses streams match ResponsesStreamEvent', () => {
  assert.ok(streams.length >= 4, `expected the recorded streams, found ${streams.join(', ')}`);
  for (const name of streams) {
    test(name, () => {
      const names = new FunctionCallNames();
      const events = fixtureChunks(`${folder}/${name}`).map((line) => {
        const event = JSON.parse(names.complete((JSON.parse(line) as Event).type, line)) as Event;
        if (event.response) completeResponse(event.response as Record<string, unknown>);
        return event;
      });
      for (const event of events) {
        assertMatchesSchema('ResponsesStreamEvent', event);
        if (event.response !== undefined) assertMatchesSchema('ResponsesResponse', event.response);
      }
      assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index));
      assert.equal(events[0]!.type, 'response.created');
      assert.match(events.at(-1)!.type, /^response\.(completed|incomplete|failed)$/);
    });
  }
});

describe('recorded OpenAI Responses bodies match the contract', () => {
  for (const name of bodies) {
    test(name, () => {
      const body = fixtureJson<Record<string, unknown>>(`${folder}/${name}`);
      if (!name.startsWith('error-')) completeResponse(body);
      assertMatchesSchema(name.startsWith('error-') ? 'OpenAIError' : 'ResponsesResponse', body);
    });
  }
});

test('the recordings cover every kind of event and output item the gateway emits', () => {
  // A schema no recording exercises is a guess; this keeps the list above honest as fixtures change.
  const events = streams.flatMap((name) => fixtureChunks(`${folder}/${name}`).map((line) => JSON.parse(line) as Event));
  const types = new Set(events.map((event) => event.type));
  for (const type of [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.done',
    'response.reasoning_summary_part.added',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.completed',
    'response.failed',
    'error',
  ]) {
    assert.ok(types.has(type), `no recording has ${type}`);
  }
  const items = new Set(events.flatMap((event) => (event.item ? [event.item.type] : [])));
  assert.deepEqual([...items].sort(), ['function_call', 'message', 'reasoning']);
});
