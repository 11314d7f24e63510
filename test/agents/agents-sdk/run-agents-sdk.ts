/**
 * The OpenAI Agents SDK as a user runs it against the gateway (test/agents/clients/agents-sdk.ts runs this with
 * Node 24, which runs TypeScript as is: so no imports of the repository's modules, whose `.js` specifiers name
 * files that are `.ts`):
 *
 *   node run-agents-sdk.ts <install dir> <responses|chat_completions> <model> <prompt> <follow-up>
 *
 * with OPENAI_BASE_URL and OPENAI_API_KEY in the environment, which the SDK's default client reads. One agent
 * with a function tool that reads a file runs the prompt, then the follow-up, in one conversation kept by the
 * gateway (/v1/conversations), once not streamed and once streamed, each in a fresh conversation that is
 * deleted at the end. Each turn's final output is printed as a line `[<mode>] turn <n>: <output>`, which
 * coding-agents.agent-test.ts reads; a run that went wrong by the SDK's own account (no tool round trip, a
 * stream whose text is not the final output, a conversation missing items) exits 1.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [installDir, api, model, prompt, followUp] = process.argv.slice(2);
if (!installDir || (api !== 'responses' && api !== 'chat_completions') || !model || !prompt || !followUp) {
  console.error('usage: node run-agents-sdk.ts <install dir> <responses|chat_completions> <model> <prompt> <follow-up>');
  process.exit(2);
}
// The pinned SDK from the cache install, not the repository's copy (whose types these are: the calls below
// are the same in both).
const fromInstall = createRequire(join(installDir, 'package.json'));
const { Agent, OpenAIConversationsSession, run, setOpenAIAPI, setTracingDisabled, startOpenAIConversationsSession, tool } = fromInstall('@openai/agents') as typeof import('@openai/agents');

// Nothing leaves the machine: the SDK's trace exporter would post to OpenAI.
setTracingDisabled(true);
setOpenAIAPI(api);

const readFileTool = tool({
  name: 'read_file',
  description: 'Reads a text file and returns its content.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'The absolute path of the file' } },
    required: ['path'],
    additionalProperties: false,
  },
  strict: true,
  execute: async (input) => readFile((input as { path: string }).path, 'utf8'),
});
const agent = new Agent({ name: 'Reader', instructions: 'Use read_file to read the files the user names.', model, tools: [readFileTool] });

type Session = InstanceType<typeof OpenAIConversationsSession>;
type Item = { type?: string; role?: string; content?: unknown };

/** One turn; the streamed form also collects the text deltas, which must add up to the final output. */
async function turn(input: string, options: { session: Session } | { conversationId: string }, stream: boolean) {
  if (!stream) return run(agent, input, options);
  const result = await run(agent, input, { ...options, stream: true });
  let streamed = '';
  for await (const event of result) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') streamed += event.data.delta;
  }
  await result.completed;
  assert.equal(result.error ?? null, null, 'the streamed run ended without an error');
  // The gateway may stream from the upstream either way, so only here does it show that this turn streamed.
  assert.ok(streamed.length > 0 && streamed.endsWith(String(result.finalOutput)), `the streamed text ${JSON.stringify(streamed)} ends with the final output ${JSON.stringify(result.finalOutput)}`);
  return result;
}

const textOf = (item: Item) => (typeof item.content === 'string' ? item.content : JSON.stringify(item.content ?? ''));

/**
 * The two ways the SDK keeps history in the gateway: an `OpenAIConversationsSession` (it reads the items before
 * each turn and sends them as input, then appends the turn's; any model, so both APIs), and `conversationId`
 * (Responses only: each turn is `POST /v1/responses` with `conversation` and only the new input, and the
 * gateway builds on the kept items and appends the turn's). Either way the session is read back afterwards.
 */
const histories = api === 'responses' ? (['session', 'conversationId'] as const) : (['session'] as const);

for (const history of histories) {
  for (const stream of [false, true]) {
    const mode = `${api}, ${history}, ${stream ? 'streamed' : 'not streamed'}`;
    const conversationId = history === 'conversationId' ? await startOpenAIConversationsSession() : undefined;
    const session = new OpenAIConversationsSession({ conversationId });
    const options = conversationId ? { conversationId } : { session };

    const first = await turn(prompt, options, stream);
    console.log(`[${mode}] turn 1: ${String(first.finalOutput)}`);
    const kinds = first.newItems.map((item) => item.type);
    assert.ok(kinds.includes('tool_call_item') && kinds.includes('tool_call_output_item'), `turn 1 ran the read_file tool: ${kinds.join(', ')}`);
    const second = await turn(followUp, options, stream);
    console.log(`[${mode}] turn 2: ${String(second.finalOutput)}`);

    // What the gateway kept, in order: the first turn (with its tool call and result), then the follow-up.
    const items = (await session.getItems()) as Item[];
    console.log(`[${mode}] ${await session.getSessionId()}: ${items.map((item) => item.role ?? item.type).join(', ')}`);
    const types = items.map((item) => item.type);
    const followUpAt = items.findIndex((item) => item.role === 'user' && textOf(item).includes(followUp));
    assert.ok(items[0]?.role === 'user' && textOf(items[0]).includes(prompt), 'the conversation starts with the first prompt');
    assert.ok(types.indexOf('function_call') > 0 && types.indexOf('function_call_result') > types.indexOf('function_call'), 'the conversation holds the tool call and its result');
    assert.ok(followUpAt > types.indexOf('function_call_result'), 'the follow-up comes after the first turn');
    assert.equal(items.at(-1)?.role, 'assistant', 'the conversation ends with the answer to the follow-up');
    await session.clearSession();
  }
}
