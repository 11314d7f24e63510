// What the protocol suites know of a provider type: how to start a gateway over its fake, what the fake
// replays, what the client must read, and how to read what the upstream received. The table is index.ts.
import type { ProviderType } from '../../../server/config/config-schema.js';
import type { BedrockAnswer } from '../fake-bedrock.js';
import type { FakeReply } from '../fake-upstream.js';
import type { TestGateway } from '../start-gateway.js';
import type { Received, WireReader } from './wire-readers.js';

/** One scripted upstream answer, in the form its fake takes. */
export type Reply = { fake: FakeReply } | { bedrock: BedrockAnswer };

/** The client protocols whose requests a provider may forward as they are (only the model renamed). */
export type ClientProtocol = 'chat' | 'messages' | 'gemini';

export interface ProfileSetup {
  gateway: TestGateway;
  /** The model ID clients send. */
  model: string;
  /** Absent for the built-in model, which answers in process. */
  upstream?: {
    enqueue(...replies: Reply[]): void;
    /** Every model call the upstream received, oldest first. */
    readonly requests: readonly Received[];
  };
  close(): Promise<void>;
}

export interface StartOptions {
  /** Model config beyond provider and upstream model (capabilities, on_unsupported, …). */
  model?: Record<string, unknown>;
}

/** A plain answer: the reply the fake gives and the text the client reads from it. */
export interface TextAnswer {
  reply: Reply;
  text: string;
}

/** A tool call: the reply, the call the client reads, and the opaque signature that must come back with the result. */
export interface ToolCallAnswer {
  reply: Reply;
  name: string;
  input: Record<string, unknown>;
  signature?: string;
}

export interface UpstreamSide {
  wire: WireReader;
  /** The client protocol this provider forwards as it is, if any. */
  passThrough?: ClientProtocol;
  /** The path and query of a model call, streamed upstream or not. */
  path(streamed: boolean): string;
  /** The call carried the upstream's credentials, in the provider's own scheme. */
  authenticated(request: Received): boolean;
  /** The upstream model the call named (in its body or its path). */
  modelOf(request: Received): string | undefined;
  /** The body a forwarded request of the client `sent` arrives with. */
  forwardedBody?(sent: Record<string, unknown>): unknown;
  /**
   * Answers as a stream, and whole: only a forwarded non-stream request asks for a whole answer, a
   * translated request always streams upstream (see `answerFor`). `usage` is what the stream reports.
   */
  text: { stream: TextAnswer; whole: TextAnswer; usage: { input: number; output: number } };
  toolCall: { stream: ToolCallAnswer; whole: ToolCallAnswer; usage: { input: number; output: number } };
  /** The upstream's token count endpoint; absent where the gateway estimates. */
  count?: { path: string; reply(total: number): Reply };
  /** Refusals in the upstream's own error shape: a bad request, and its credentials refused. */
  refusal: { badRequest(message: string): Reply; badCredentials(message: string): Reply };
}

export interface UpstreamProfile {
  /** Unique, for test titles: the type, with the variant where a type has several. */
  name: string;
  type: ProviderType;
  start(options?: StartOptions): Promise<ProfileSetup>;
  /** Absent for the built-in model. */
  upstream?: UpstreamSide;
}
