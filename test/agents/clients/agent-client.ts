/**
 * What the harness needs to know of one coding agent: the pinned npm package that installs it, the protocol
 * it speaks, how to point it at a base URL non-interactively, and which of its own tools reads a file.
 */
import type { ScriptedProtocol } from '../scripted-upstream/start-scripted-upstream.js';
import type { ScriptedToolCall } from '../scripted-upstream/script.js';

export interface AgentSetup {
  /** A fresh, empty folder used as HOME (and for any config the client reads from there). */
  home: string;
  /** The working directory the client runs in; it holds the file the tool round trip reads. */
  workDir: string;
  /** `http://127.0.0.1:<port>`, without `/v1`: the gateway's, or a scripted upstream's when recording. */
  origin: string;
  apiKey: string;
  model: string;
  prompt: string;
}

export interface AgentInvocation {
  args: string[];
  /** Added to a minimal environment (PATH, HOME); nothing else of the caller's environment reaches the client. */
  env: Record<string, string>;
}

export interface AgentClient {
  /** Folder name under test/fixtures/clients/ and the test's label. */
  name: 'claude-code' | 'codex' | 'gemini-cli' | 'opencode';
  npmPackage: string;
  version: string;
  /** The executable the package links into node_modules/.bin. */
  bin: string;
  /** The API the client calls (and the scripted upstream it is pointed at when recording). */
  protocol: ScriptedProtocol;
  /** Which header carries its key, so a replay can put the gateway's key where the client put its own. */
  authHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key';
  /** The client's own tool that reads `file` (an absolute path inside the working directory). */
  readFileTool(file: string): ScriptedToolCall;
  /** Writes whatever config the client reads under `setup.home` and says how to run it one-shot. */
  prepare(setup: AgentSetup): Promise<AgentInvocation>;
}
