/**
 * `npm run test:agents [-- --record | --install-only] [client …]`: installs the pinned coding agents (test/agents/clients/) into
 * the cache outside the repository, then runs test/agents/coding-agents.agent-test.ts (or, with --record,
 * test/agents/record-clients.ts) inside a new network namespace that has only loopback (`unshare -n`, which
 * needs root), so the clients reach the gateway and the scripted upstreams and nothing else. Naming clients
 * (agents-sdk-chat, agents-sdk-responses, claude-agent-sdk, claude-code, codex, codex-openai,
 * codex-websocket-provider, codex-compaction, gemini-cli, opencode, qwen-code-openai-chat,
 * qwen-code-openai-responses, qwen-code-anthropic, qwen-code-gemini, kilo-code) or routes (builtin, openai-chat,
 * openai-responses, anthropic, gemini) narrows the run. The OpenAI Agents SDK is a library: its clients run a
 * script of ours (test/agents/agents-sdk/) on the Node 24 installed beside it, and are not recorded (their
 * conversations live in the gateway). The Claude Agent SDK runs so too (test/agents/claude-agent-sdk/).
 * `--install-only` stops after the installs: CI runs it beside the main suite, so the registry's time is
 * not spent on CI's clock.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { agentRoutes } from '../test/agents/agent-routes.js';
import { agentClients } from '../test/agents/clients/all-clients.js';
import { installAgent, installDir, installedPackages } from '../test/agents/install-agents.js';

const args = process.argv.slice(2);
const record = args.includes('--record');
const installOnly = args.includes('--install-only');
const names = args.filter((arg) => arg !== '--record' && arg !== '--install-only');
const clientNames = names.filter((name) => agentClients.some((client) => client.name === name));
const routeNames = names.filter((name) => agentRoutes.some((route) => route.name === name));
const unknown = names.filter((name) => !clientNames.includes(name) && !routeNames.includes(name));
if (unknown.length) {
  console.error(`unknown client or route ${unknown.join(', ')}; clients: ${agentClients.map((client) => client.name).join(', ')}; routes: ${agentRoutes.map((route) => route.name).join(', ')}`);
  process.exit(2);
}
const clients = agentClients.filter((client) => clientNames.length === 0 || clientNames.includes(client.name));
if (process.getuid?.() !== 0) {
  console.error('npm run test:agents needs root: it runs the clients in a private network namespace (unshare -n)');
  process.exit(2);
}

// Before the namespace: the installs are the only step that needs the registry.
const started = Date.now();
// One install per package version: Codex's configurations share one.
const installs = new Map(clients.map((client) => [installDir(client), client]));
await Promise.all([...installs.values()].map((client) => installAgent(client)));
console.log(`coding agents ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${[...installs.values()].flatMap((client) => installedPackages(client)).join(', ')}`);
if (installOnly) process.exit(0);

const inside = record
  ? [process.execPath, '--import', 'tsx', 'test/agents/record-clients.ts', ...clientNames]
  : [process.execPath, '--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', 'test/agents/coding-agents.agent-test.ts'];
// A new namespace's loopback is down until brought up.
const child = spawn('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...inside], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test', AGENT_CLIENTS: clientNames.join(','), AGENT_ROUTES: routeNames.join(',') },
});
const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
process.exit(code ?? (signal ? 1 : 0));
