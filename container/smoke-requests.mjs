// The smoke test's requests, against a gateway that is already running (in a container or as the
// container would run it): liveness, readiness, and a chat completion, plain and streamed, through the
// openai SDK of this checkout's dev dependencies with a key made by the keys subcommand. Both
// container/ci-image-smoke.sh and container/smoke-outside-container.sh run it.
//   node container/smoke-requests.mjs <origin> <key>
import OpenAI from 'openai';

const [origin, key] = process.argv.slice(2);
if (!origin || !key) throw new Error('usage: node container/smoke-requests.mjs <origin> <key>');

for (const probe of ['/healthz', '/readyz']) {
  const response = await fetch(origin + probe);
  if (response.status !== 200) throw new Error(`${probe}: ${response.status} ${await response.text()}`);
  console.log(`${probe}: 200`);
}

const client = new OpenAI({ apiKey: key, baseURL: `${origin}/v1` });
const messages = [{ role: 'user', content: 'smoke' }];
const answer = await client.chat.completions.create({ model: 'builtin/echo', messages });
if (answer.choices[0].message.content !== 'You said: smoke') throw new Error(JSON.stringify(answer));
console.log('chat completion:', answer.choices[0].message.content);

let streamed = '';
for await (const chunk of await client.chat.completions.create({ model: 'builtin/echo', messages, stream: true })) {
  streamed += chunk.choices[0]?.delta?.content ?? '';
}
if (streamed !== 'You said: smoke') throw new Error(`streamed: ${JSON.stringify(streamed)}`);
console.log('streamed chat completion:', streamed);
