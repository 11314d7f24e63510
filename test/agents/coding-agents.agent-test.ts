/**
 * The real coding agents, unmodified, against a real gateway: each one-shot prompt over the built-in model
 * and over a scripted upstream behind every provider type, with a tool round trip (the client reads a file
 * with its own tool and the upstream gets the file's content back). Run by `npm run test:agents`
 * (scripts/test-agents.mjs), which installs the pinned clients and runs this file in a network namespace
 * that has only loopback, so no client can reach anything but the gateway.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { before, describe, it } from 'node:test';
import { startGateway } from '../helpers/start-gateway.js';
import { AGENT_MODEL, agentRoutes, type AgentRoute } from './agent-routes.js';
import type { AgentClient } from './clients/agent-client.js';
import { agentClients } from './clients/all-clients.js';
import { agentBin, isInstalled } from './install-agents.js';
import { describeRun, makeRunFolder, NOTE_TOKEN, runAgent } from './run-agent.js';
import { FINAL_TEXT } from './scripted-upstream/script.js';
import { protocolOf, startScriptedUpstream, viewRequest } from './scripted-upstream/start-scripted-upstream.js';

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
  try {
    const run = await runAgent(client, folder, { origin: gateway.origin, apiKey: gateway.apiKey, model: AGENT_MODEL, timeoutMs: TIMEOUT_MS });
    const refusals = gateway.logs.filter((line) => /"status":[45]\d\d/.test(line));
    return { run, upstream, refusals };
  } finally {
    await gateway.close();
    await upstream.close();
  }
}

for (const client of clients) {
  describe(`${client.name} ${client.version}`, () => {
    before(() => assert.ok(isInstalled(client), `${agentBin(client)} is missing: npm run test:agents installs it`));

    for (const route of routes) {
      it(`answers a one-shot prompt with a tool round trip over ${route.name}`, { timeout: TIMEOUT_MS + 30_000 }, async () => {
        const { run, upstream, refusals } = await runOverRoute(client, route);
        const context = `${describeRun(run)}\n--- gateway refusals and failures\n${refusals.join('\n')}`;
        assert.equal(run.code, 0, context);

        const expected = route.upstreamProtocol(client);
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
