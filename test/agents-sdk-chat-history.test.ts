// The OpenAI Agents SDK (`@openai/agents` on Chat Completions) sends each earlier assistant turn back as it
// received it: its converter (packages/agents-openai/src/openaiChatCompletionsConverter.ts,
// extractAllAssistantContent) writes an `output_text` as `{type: 'text', text, ...providerData}`, and the
// provider data of a Chat answer carries the message's other fields, `refusal: null` and `annotations: []`.
// OpenAI accepts that; the gateway refused it ('/body/messages/2/content/0/refusal must be string', issue 36).
// Here that exact turn goes through Chat Completions to upstreams of other protocols, streamed and not: the
// gateway takes it, the upstream receives the assistant's text in its own protocol, and the extra fields
// stay behind (no upstream has them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { profilesByType, textAnswer, type ProfileSetup, type UpstreamProfile } from './helpers/upstream-profiles/index.js';

/** The body the Agents SDK sends on the second turn of a conversation (its instructions as the system message). */
const agentsSdkSecondTurn = (model: string, stream: boolean) => ({
  model,
  messages: [
    { role: 'system', content: 'You are a concise geography assistant.' },
    { role: 'user', content: 'What is the capital of France?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Paris.', refusal: null, annotations: [] }] },
    { role: 'user', content: 'And of Italy?' },
  ],
  stream,
  ...(stream ? { stream_options: { include_usage: true } } : {}),
});

const translated: UpstreamProfile[] = [...profilesByType.anthropic, ...profilesByType.gemini];

for (const profile of translated) {
  const side = profile.upstream!;
  describe(`the Agents SDK's assistant turn (refusal: null on a text part) over a ${profile.name} upstream`, () => {
    let setup: ProfileSetup;
    before(async () => {
      setup = await profile.start();
    });
    after(() => setup.close());

    for (const stream of [false, true]) {
      test(stream ? 'streamed' : 'not streamed', async () => {
        const answer = textAnswer(side, 'chat', stream);
        setup.upstream!.enqueue(answer.reply);
        const response = await fetch(`${setup.gateway.origin}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${setup.gateway.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(agentsSdkSecondTurn(setup.model, stream)),
        });
        const text = await response.text();
        assert.equal(response.status, 200, text);
        if (stream) {
          const deltas = text
            .split('\n')
            .filter((line) => line.startsWith('data: {'))
            .map((line) => (JSON.parse(line.slice('data: '.length)) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? '');
          assert.equal(deltas.join(''), answer.text);
        } else {
          assert.equal((JSON.parse(text) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content, answer.text);
        }

        const received = setup.upstream!.requests.at(-1)!;
        assert.deepEqual(side.wire.history(received), [
          ['user', 'What is the capital of France?'],
          ['assistant', 'Paris.'],
          ['user', 'And of Italy?'],
        ]);
        assert.equal(side.wire.system(received), 'You are a concise geography assistant.');
        const wire = JSON.stringify(received.json);
        assert.ok(!wire.includes('refusal') && !wire.includes('annotations'), `the client's extra fields reached the upstream: ${wire}`);
      });
    }

    test("the other nulls and values the contract now takes are read as OpenAI reads them", async () => {
      const answer = textAnswer(side, 'chat', false);
      setup.upstream!.enqueue(answer.reply);
      const response = await fetch(`${setup.gateway.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${setup.gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: setup.model,
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'What is the capital of France?', image_url: null, file: null, input_audio: null }], name: null, tool_calls: null, tool_call_id: null },
            { role: 'assistant', content: 'Paris.', tool_calls: null, tool_call_id: null, name: null },
            { role: 'user', content: 'And of Italy?' },
          ],
          response_format: { type: 'text', json_schema: null },
          reasoning_effort: 'max',
        }),
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.deepEqual(side.wire.history(setup.upstream!.requests.at(-1)!), [
        ['user', 'What is the capital of France?'],
        ['assistant', 'Paris.'],
        ['user', 'And of Italy?'],
      ]);
    });
  });
}
