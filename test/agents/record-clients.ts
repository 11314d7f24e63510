/**
 * Records what each coding agent sends (`npm run test:agents -- --record [client …]`): the client runs its
 * one-shot prompt with a tool round trip straight against a scripted upstream of its own protocol, which
 * keeps every request; each is written to test/fixtures/clients/<client>/ with the client's own long texts cut
 * (recording/cut-client-texts.ts). test/client-recordings.test.ts replays them through the gateway in every
 * `npm test`. Run inside the private network namespace scripts/test-agents.ts makes.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_MODEL } from './agent-routes.js';
import { recordedClients } from './clients/all-clients.js';
import { recordingsDir, type ClientRecording } from './recording/client-recording.js';
import { cutBody, cutHeaders } from './recording/cut-client-texts.js';
import { describeRun, makeRunFolder, NOTE_TOKEN, runAgent } from './run-agent.js';
import { decideTurn, FINAL_TEXT, type AgentScript } from './scripted-upstream/script.js';
import { startScriptedUpstream, viewRequest } from './scripted-upstream/start-scripted-upstream.js';

const wanted = process.argv.slice(2);
const clients = recordedClients.filter((client) => wanted.length === 0 || wanted.includes(client.name));

let failed = false;
for (const client of clients) {
  const folder = await makeRunFolder(client);
  const script: AgentScript = { toolCall: client.readFileTool(folder.noteFile) };
  const upstream = await startScriptedUpstream(script);
  const run = await runAgent(client, folder, { origin: upstream.origin, apiKey: 'sk-recording-only', model: AGENT_MODEL, timeoutMs: 180_000 });
  await upstream.close();
  if (run.code !== 0 || !run.stdout.includes(FINAL_TEXT)) {
    console.error(`${client.name}: the recording run did not finish its round trip; nothing written\n${describeRun(run)}`);
    failed = true;
    continue;
  }
  const folderOut = join(recordingsDir, client.name);
  await rm(folderOut, { recursive: true, force: true });
  await mkdir(folderOut, { recursive: true });
  for (const [index, request] of upstream.requests.entries()) {
    if (request.body !== '' && request.json === undefined) throw new Error(`${client.name} sent a body that is not JSON (compressed?) to ${request.url}`);
    const view = viewRequest(request);
    const decision = view && decideTurn(script, view);
    const turn: ClientRecording['turn'] = decision?.kind === 'tool_call' ? 'asks-for-tool' : decision?.kind === 'text' && decision.text === FINAL_TEXT ? 'after-tool-result' : 'side-request';
    const recording: ClientRecording = {
      client: client.name,
      version: client.version,
      protocol: client.protocol,
      auth_header: client.authHeader,
      turn,
      method: request.method,
      path: request.url,
      headers: cutHeaders(request.headers, folder.root),
      body: cutBody(request.json, folder.root, NOTE_TOKEN),
    };
    const file = join(folderOut, `${String(index + 1).padStart(2, '0')}-${turn}.json`);
    await writeFile(file, `${JSON.stringify(recording, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}
process.exit(failed ? 1 : 0);
