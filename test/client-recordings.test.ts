/**
 * Every request the real coding agents sent (test/fixtures/clients/, recorded by `npm run test:agents --
 * --record`), replayed through a real gateway over the built-in model and over a scripted upstream behind
 * each provider type: each must get a successful answer in its protocol's shape (streams checked frame by
 * frame), and on the upstream routes the answer the script gives for that turn (the tool call, or the final
 * text once the tool's result has reached the upstream). The same clients run for real in
 * `npm run test:agents`; this finds a regression in seconds, without installing them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentRoutes } from './agents/agent-routes.js';
import { agentClients, recordedClients } from './agents/clients/all-clients.js';
import { readRecordings, RECORDED_RUN_ROOT, type ClientRecording } from './agents/recording/client-recording.js';
import { readAnswer } from './agents/recording/read-answer.js';
import { NOTE_FILE, NOTE_TOKEN, WORK_FOLDER } from './agents/run-agent.js';
import { FINAL_TEXT, SIDE_TEXT, type AgentScript } from './agents/scripted-upstream/script.js';
import { startScriptedUpstream, viewRequest } from './agents/scripted-upstream/start-scripted-upstream.js';
import type { FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const recordings = readRecordings();
const clientOf = (recording: ClientRecording) => agentClients.find((client) => client.name === recording.client)!;

it('there is a recording of every client, with its tool round trip', () => {
  for (const client of recordedClients) {
    const turns = recordings.filter(({ recording }) => recording.client === client.name).map(({ recording }) => recording.turn);
    assert.ok(turns.includes('asks-for-tool') && turns.includes('after-tool-result'), `${client.name}: ${turns.join(', ') || 'no recordings'}`);
  }
});

/** The gateway's key goes where the client put its own. */
function authHeaders(recording: ClientRecording, key: string): Record<string, string> {
  return recording.auth_header === 'authorization' ? { authorization: `Bearer ${key}` } : { [recording.auth_header]: key };
}

for (const route of agentRoutes) {
  describe(`client recordings over ${route.name}`, () => {
    let gateway: TestGateway;
    let upstream: FakeUpstream;
    // The upstream reads the script when a request arrives: each replay first sets its client's read tool.
    const script: AgentScript = { toolCall: { name: '', arguments: {} } };
    before(async () => {
      upstream = await startScriptedUpstream(script);
      gateway = await startGateway({ config: route.config(upstream.origin) });
    });
    after(async () => {
      await gateway.close();
      await upstream.close();
    });

    for (const { file, recording } of recordings) {
      it(`${file} (${recording.turn})`, async () => {
        const client = clientOf(recording);
        script.toolCall = client.readFileTool(`${RECORDED_RUN_ROOT}/${WORK_FOLDER}/${NOTE_FILE}`);
        const sentBefore = upstream.requests.length;
        const response = await fetch(`${gateway.origin}${recording.path}`, {
          method: recording.method,
          headers: { ...recording.headers, ...authHeaders(recording, gateway.apiKey) },
          body: JSON.stringify(recording.body),
        });
        const body = await response.text();
        assert.equal(response.status, 200, `${response.status} ${body.slice(0, 2000)}`);
        const answer = readAnswer(recording.protocol, body, response.headers.get('content-type') ?? '');
        assert.ok(answer.text !== '' || answer.toolCalls.length > 0, 'the answer says something');

        if (route.upstreamProtocol(client) === undefined) return; // the built-in model's words are its own
        const received = upstream.requests.slice(sentBefore).map((request) => viewRequest(request));
        assert.equal(received.length, 1, 'one upstream call');
        if (recording.turn === 'asks-for-tool') {
          assert.deepEqual(answer.toolCalls, [script.toolCall.name]);
        } else if (recording.turn === 'after-tool-result') {
          assert.ok(received[0]?.toolResults.some((result) => result.includes(NOTE_TOKEN)), 'the tool result reached the upstream');
          assert.equal(answer.text, FINAL_TEXT);
        } else {
          assert.equal(answer.text, SIDE_TEXT);
        }
      });
    }
  });
}
