/**
 * The real coding agents, unmodified, against a real gateway: each one-shot prompt over the built-in model
 * and over a scripted upstream behind every provider type, with a tool round trip (the client reads a file
 * with its own tool and the upstream gets the file's content back). Run by `npm run test:agents`
 * (scripts/test-agents.ts), which installs the pinned clients and runs this file in a network namespace
 * that has only loopback, so no client can reach anything but the gateway. A client that speaks the Responses
 * WebSocket (Codex's built-in `openai` provider, a provider with `supports_websockets = true`) must also have
 * run every turn over its socket, without a reconnect. A client that keeps its history in the gateway's
 * conversations (the OpenAI Agents SDK's `OpenAIConversationsSession`) must have used them, and its follow-up
 * must have reached the upstream with the history. One set to compact its context (Codex with a tiny
 * `model_auto_compact_token_limit`) must have compacted and carried on. On every route, neither key crosses
 * over: the upstream's never reaches the client, the client's never reaches the upstream.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { before, describe, it } from 'node:test';
import { summaryPreamble } from '../../server/core/compaction-summary.js';
import type { FakeUpstream, RecordedRequest } from '../helpers/fake-upstream.js';
import { startGateway } from '../helpers/start-gateway.js';
import { AGENT_MODEL, agentRoutes, UPSTREAM_KEY, type AgentRoute } from './agent-routes.js';
import type { AgentClient } from './clients/agent-client.js';
import { agentClients } from './clients/all-clients.js';
import { agentBin, isInstalled } from './install-agents.js';
import { describeRun, makeRunFolder, NOTE_TOKEN, runAgent, type AgentRun } from './run-agent.js';
import { asksForCompaction, SCRIPTED_COMPACTION_CONTENT } from './scripted-upstream/openai-responses-compaction.js';
import { COMPACTION_SUMMARY, FINAL_TEXT } from './scripted-upstream/script.js';
import { protocolOf, startScriptedUpstream, viewRequest, type ScriptedProtocol } from './scripted-upstream/start-scripted-upstream.js';

const TIMEOUT_MS = 180_000;
/** `npm run test:agents -- codex gemini` narrows the run to those clients and routes. */
const only = (variable: string | undefined, name: string) => !variable || variable.split(',').includes(name);
const clients = agentClients.filter((client) => only(process.env.AGENT_CLIENTS, client.name));
const routes = agentRoutes.filter((route) => only(process.env.AGENT_ROUTES, route.name));

before(() => {
  const outside = Object.values(networkInterfaces()).flat().filter((address) => address && !address.internal);
  assert.deepEqual(outside, [], 'the coding agents run only in a network namespace with nothing but loopback: use npm run test:agents');
});

async function runOverRoute(client: AgentClient, route: AgentRoute) {
  const folder = await makeRunFolder(client);
  const upstream = await startScriptedUpstream({ toolCall: client.readFileTool(folder.noteFile) });
  const gateway = await startGateway({ config: route.config(upstream.origin) });
  let run: AgentRun;
  try {
    run = await runAgent(client, folder, { origin: gateway.origin, apiKey: gateway.apiKey, model: AGENT_MODEL, timeoutMs: TIMEOUT_MS });
  } finally {
    await gateway.close();
    await upstream.close();
  }
  // Read once the gateway is closed: a socket's own log line is written when it has closed.
  const refusals = gateway.logs.filter((line) => /"status":[45]\d\d/.test(line));
  return { run, upstream, refusals, apiKey: gateway.apiKey, logs: gateway.logs.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/**
 * Codex retries a WebSocket it cannot open five times ("Reconnecting... 1/5" … "5/5") before it falls back to
 * HTTP; here it must open it at once, and every `POST /v1/responses` the gateway served must be a turn of
 * the socket (its `websocket turn` log line, `"transport": "websocket"`), none a request of its own.
 */
function assertTurnsOverWebSocket(run: AgentRun, logs: Record<string, unknown>[], context: string): void {
  assert.doesNotMatch(`${run.stdout}\n${run.stderr}`, /Reconnecting|Falling back from WebSockets/i, context);
  const handshakes = logs.filter((line) => line.msg === 'request' && line.method === 'GET' && line.path === '/v1/responses');
  assert.ok(handshakes.length > 0 && handshakes.every((line) => line.status === 101), `the WebSocket was opened, and only with 101: ${JSON.stringify(handshakes)}\n${context}`);
  const turns = logs.filter((line) => line.msg === 'websocket turn' && line.transport === 'websocket');
  const posts = logs.filter((line) => line.msg === 'request' && line.method === 'POST' && line.path === '/v1/responses');
  assert.ok(turns.length > 0, `turns ran over the WebSocket\n${context}`);
  assert.equal(posts.length, turns.length, `every Responses request was a turn of the socket (${posts.length} requests, ${turns.length} socket turns)\n${context}`);
}

/**
 * A session kept in the gateway's conversations (the Agents SDK's `OpenAIConversationsSession`, and on
 * Responses its `conversationId` too): the SDK created one, read its items before each turn and appended each
 * turn's, and cleared it, every call answered 2xx. On an upstream route the follow-up must have arrived with
 * the first turn's tool result, and every turn the client printed (`[<mode>] turn <n>: <final output>`, see
 * agents-sdk/run-agents-sdk.ts) must have got the upstream's final text, which the script gives only to a
 * request carrying a tool result: a follow-up can only have carried one from the gateway's kept items.
 */
function assertSessionKept(client: AgentClient, run: AgentRun, logs: Record<string, unknown>[], upstream: FakeUpstream | undefined, context: string): void {
  const calls = logs.filter((line) => line.msg === 'request' && typeof line.path === 'string' && line.path.startsWith('/v1/conversations'));
  const made = (method: string, path: RegExp) => calls.filter((line) => line.method === method && path.test(String(line.path)));
  const listed = calls.map((line) => `${String(line.method)} ${String(line.path)} ${String(line.status)}`);
  assert.ok(calls.every((line) => typeof line.status === 'number' && line.status < 300), `every conversation call answered 2xx: ${listed.join(', ')}\n${context}`);
  assert.ok(made('POST', /^\/v1\/conversations$/).length > 0, `a conversation was created: ${listed.join(', ')}`);
  assert.ok(made('GET', /^\/v1\/conversations\/[^/]+\/items$/).length > 0, `its items were read: ${listed.join(', ')}`);
  assert.ok(made('POST', /^\/v1\/conversations\/[^/]+\/items$/).length > 0, `the turns' items were appended: ${listed.join(', ')}`);
  assert.ok(made('DELETE', /^\/v1\/conversations\/[^/]+$/).length > 0, `the session was cleared: ${listed.join(', ')}`);
  if (!upstream) return;
  const followUp = client.session!.followUp;
  const carried = upstream.requests.filter((request) => request.body.includes(followUp) && viewRequest(request)?.toolResults.some((result) => result.includes(NOTE_TOKEN)));
  assert.ok(carried.length > 0, `the follow-up reached the upstream with the first turn's tool result\n${context}`);
  const turns = run.stdout.match(/^\[[^\]]*\] turn \d+: .*$/gm) ?? [];
  assert.ok(turns.length > 0 && turns.every((line) => line.endsWith(`: ${FINAL_TEXT}`)), `every turn got the upstream's final answer: ${turns.join(' | ')}`);
}

/** The gateway holds the upstream's key and the client holds its own; neither may reach the other side. */
function assertKeysStayPut(run: AgentRun, upstream: FakeUpstream, gatewayKey: string): void {
  assert.ok(!`${run.stdout}\n${run.stderr}`.includes(UPSTREAM_KEY), 'the upstream key never reached the client');
  const leaked = upstream.requests.filter((request) => JSON.stringify(request.headers).includes(gatewayKey) || request.body.includes(gatewayKey));
  assert.deepEqual(leaked.map((request) => request.url), [], 'the client\'s gateway key never reached the upstream');
}

/**
 * The run compacted its context once it had the tool's result, and carried on from the summary (the
 * client's final answer is checked as on any run). Over an `api: responses` upstream the gateway forwarded
 * the `compaction_trigger` request and the upstream's own `compaction` item came back to it; over every other
 * upstream the gateway asked the same model for a summary, sealed it, and opened it again when the client
 * sent the item back (the upstream then read the preamble and the summary). On the built-in model, which
 * makes the summary itself, its last answer repeats the opened summary, which describes the tool's result.
 */
function assertCompacted(run: AgentRun, requests: RecordedRequest[], expected: ScriptedProtocol | undefined, context: string): void {
  assert.match(run.stderr, /^context compacted$/m, `the client says it compacted\n${context}`);
  const seen = requests.map((request) => `${request.method} ${request.url}${asksForCompaction(request) ? ' (compaction_trigger)' : viewRequest(request)?.asksForSummary ? ' (asks for a summary)' : ''}`).join(', ');
  if (expected === undefined) {
    assert.ok(run.stdout.includes(summaryPreamble), `the built-in model's last answer repeats the opened summary\n${context}`);
    return;
  }
  const asked = requests.findIndex((request) => (expected === 'openai-responses' ? asksForCompaction(request) : viewRequest(request)?.asksForSummary));
  assert.ok(asked >= 0, `the upstream was asked to compact: ${seen}`);
  const carriedBack = expected === 'openai-responses' ? [SCRIPTED_COMPACTION_CONTENT] : [summaryPreamble, COMPACTION_SUMMARY];
  assert.ok(
    requests.slice(asked + 1).some((request) => carriedBack.every((text) => request.body.includes(text))),
    `a later request carried the compaction back to the upstream${expected === 'openai-responses' ? ' (its own item, as it was)' : ' (the sealed item opened: preamble and summary)'}: ${seen}`,
  );
}

for (const client of clients) {
  describe(`${client.name} ${client.version}`, () => {
    before(() => assert.ok(isInstalled(client), `${agentBin(client)} is missing: npm run test:agents installs it`));

    for (const route of routes) {
      const compacting = client.compacts ? ', compacting its context on the way,' : '';
      it(`answers a one-shot prompt with a tool round trip${compacting} over ${route.name}`, { timeout: TIMEOUT_MS + 30_000 }, async () => {
        const { run, upstream, refusals, logs, apiKey } = await runOverRoute(client, route);
        const context = `${describeRun(run)}\n--- gateway refusals and failures\n${refusals.join('\n')}`;
        assert.equal(run.code, 0, context);
        assertKeysStayPut(run, upstream, apiKey);
        if (client.transport === 'websocket') assertTurnsOverWebSocket(run, logs, context);
        if (client.compacts) assertCompacted(run, upstream.requests, route.upstreamProtocol(client), context);

        const expected = route.upstreamProtocol(client);
        if (client.session) assertSessionKept(client, run, logs, expected === undefined ? undefined : upstream, context);
        if (expected === undefined) {
          // The built-in model calls the first offered tool and then describes its result ("Tool X returned: …",
          // or "Tool X failed with: …" when the client reports an error): those words on stdout show the round
          // trip went from the gateway through the client's tool and back.
          assert.match(run.stdout, /Tool \S+ (returned|failed with)/, context);
          return;
        }
        assert.ok(run.stdout.includes(FINAL_TEXT), `the client printed the upstream's final answer\n${context}`);
        const seen = upstream.requests.map((request) => `${request.method} ${request.url}`);
        assert.ok(upstream.requests.every((request) => protocolOf(request) === expected), `every upstream request speaks ${expected}: ${seen.join(', ')}`);
        const views = upstream.requests.map((request) => viewRequest(request)!);
        const { name } = client.readFileTool(run.noteFile);
        assert.ok(views.some((view) => view.toolNames.includes(name)), `the upstream was offered the client's ${name} tool`);
        assert.ok(views.some((view) => view.toolResults.some((result) => result.includes(NOTE_TOKEN))), `the file's content came back to the upstream as a tool result: ${seen.join(', ')}`);
      });
    }
  });
}
