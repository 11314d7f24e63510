// LangChain JS against the gateway, configured as the README's recipe says (only key, base URL and model
// changed): ChatOpenAI over Chat Completions and over the Responses API, ChatAnthropic over Messages; a
// plain answer, a stream, and a tool round trip (bindTools, the tool's result sent back as a ToolMessage).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => {
  gateway = await startGateway();
});
after(() => gateway.close());

const getWeather = tool(async ({ city }: { city: string }) => JSON.stringify({ city, temperature: 21 }), {
  name: 'get_weather',
  description: 'The weather in a city.',
  schema: z.object({ city: z.string() }),
});

type Chat = ChatOpenAI | ChatAnthropic;
const models: Record<string, () => Chat> = {
  'ChatOpenAI (Chat Completions)': () =>
    new ChatOpenAI({ model: 'builtin/echo', apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, maxRetries: 0 }),
  'ChatOpenAI (Responses API)': () =>
    new ChatOpenAI({ model: 'builtin/echo', apiKey: gateway.apiKey, configuration: { baseURL: `${gateway.origin}/v1` }, useResponsesApi: true, maxRetries: 0 }),
  ChatAnthropic: () => new ChatAnthropic({ model: 'builtin/echo', apiKey: gateway.apiKey, anthropicApiUrl: gateway.origin, maxRetries: 0 }),
};

for (const [name, create] of Object.entries(models)) {
  describe(`LangChain ${name}`, () => {
    test('invoke and stream', async () => {
      const chat = create();
      const answer = await chat.invoke('Hello gateway');
      assert.equal(answer.text, 'You said: Hello gateway');
      let streamed = '';
      for await (const chunk of await chat.stream('Stream me')) streamed += chunk.text;
      assert.equal(streamed, 'You said: Stream me');
    });

    test('a tool round trip', async () => {
      const chat = create().bindTools([getWeather]);
      const history: BaseMessage[] = [new HumanMessage('What is the weather in Lyon?')];
      const call = (await chat.invoke(history)) as AIMessage;
      const [toolCall] = call.tool_calls ?? [];
      assert.equal(toolCall?.name, 'get_weather');
      assert.equal(typeof toolCall?.args.city, 'string');
      const result = await getWeather.invoke({ city: 'Lyon' });
      history.push(call, new ToolMessage({ content: result, tool_call_id: toolCall!.id! }));
      const final = await chat.invoke(history);
      assert.equal(final.text, 'Tool get_weather returned: {"city":"Lyon","temperature":21}');
    });
  });
}
