/**
 * One request a coding agent sent, as kept in test/fixtures/clients/<client>/: what the client sent (method,
 * path, headers and body, with its own long texts cut and no key), and what the scripted upstream answered it,
 * so a replay knows what to expect.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentClient } from '../clients/agent-client.js';
import type { ScriptedProtocol } from '../scripted-upstream/start-scripted-upstream.js';

export const recordingsDir = new URL('../../fixtures/clients/', import.meta.url).pathname;

/** The folder every recorded run's files sit in, written in place of the run's temporary folder. */
export const RECORDED_RUN_ROOT = '/tmp/agent-run';

export interface ClientRecording {
  client: AgentClient['name'];
  version: string;
  protocol: ScriptedProtocol;
  /** The header the client put its key in; the key itself is not kept. */
  auth_header: AgentClient['authHeader'];
  /** What the scripted upstream answered: the tool call, the final text after the tool result, or a side text. */
  turn: 'asks-for-tool' | 'after-tool-result' | 'side-request';
  method: string;
  /** Path and query as sent, relative to the origin (the client's base URL path included). */
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export function readRecordings(): Array<{ file: string; recording: ClientRecording }> {
  return readdirSync(recordingsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) =>
      readdirSync(join(recordingsDir, folder.name))
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => {
          const file = join(folder.name, name);
          return { file, recording: JSON.parse(readFileSync(join(recordingsDir, file), 'utf8')) as ClientRecording };
        }),
    );
}
