import { setTimeout as sleep } from 'node:timers/promises';
import type { CoverageSnapshots, Snapshot } from './coverage-snapshots.js';
import { onHandlerStart } from './handler-boundary.js';
import type { HeldAnthropicUpstream, HeldStream } from './held-anthropic-upstream.js';
import type { InProcessGateway } from './in-process-gateway.js';
import type { PromiseReactions } from './promise-reactions.js';
import { streamedChat } from './streamed-chat.js';

/** What one streamed chat ran of server/, phase by phase, and the promise reactions of one chunk, by owner. */
export interface WalkSample {
  frontDoor: Snapshot;
  wayOut: Snapshot;
  wayBack: Snapshot;
  reactions: Map<string, number>;
}

/**
 * Sends streamed chats through the gateway and cuts each into phases with coverage snapshots:
 * front door = the client sending → the handler of createChatCompletion entered (handler-boundary.ts);
 * way out = that → the upstream's `request` event; way back = the upstream writing one more event → the
 * client's `data` event for its chunk. Promise reactions are counted in the way-back window.
 */
export function prepareWalk(parts: { coverage: CoverageSnapshots; reactions: PromiseReactions; upstream: HeldAnthropicUpstream; gateway: InProcessGateway }) {
  const { coverage, reactions, upstream, gateway } = parts;
  let phase: 'idle' | 'front' | 'out' | 'head' | 'back' | 'tail' = 'idle';
  let sample: Partial<WalkSample> = {};
  let held: HeldStream | undefined;
  let unexpected: Error | undefined;
  onHandlerStart(coverage, 'createChatCompletion', () => {
    if (phase !== 'front') return;
    sample.frontDoor = coverage.take();
    phase = 'out';
  });
  upstream.onRequest((stream) => {
    if (phase !== 'out') return;
    sample.wayOut = coverage.take();
    held = stream;
    phase = 'head';
  });
  const onData = (piece: string) => {
    if (phase !== 'back') return;
    sample.wayBack = coverage.take();
    sample.reactions = reactions.close();
    phase = 'tail';
    // The window must hold exactly the one chunk the upstream's event became.
    if (piece.split('data: ').length !== 2 || !piece.includes('"content":"! I"')) unexpected = new Error(`expected one chunk with "! I", the client got ${JSON.stringify(piece)}`);
  };

  return async function walk(): Promise<WalkSample> {
    sample = {};
    held = undefined;
    unexpected = undefined;
    // Puts the key in the gateway's key cache (keys/: 1 s) afresh, as for a client that calls more than once
    // a second, then lets that request's after-work (its ledger row) finish before the walk starts.
    await sleep(1_100);
    const models = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    if (!models.ok) throw new Error(`GET /v1/models answered ${models.status}`);
    await models.arrayBuffer();
    reactions.enable();
    await sleep(200);
    coverage.take();
    phase = 'front';
    const chat = streamedChat(gateway.origin, gateway.apiKey, gateway.model, onData);
    chat.done.catch(() => undefined);
    const stream = await until(() => held, chat.done);
    // message_start, content_block_start, ping and the first delta: the stream is open at both ends.
    while (stream.nextType() !== 'content_block_delta') stream.releaseNext();
    stream.releaseNext();
    await chat.received('"content":"Hello"');
    await sleep(200);
    coverage.take();
    reactions.open();
    phase = 'back';
    stream.releaseNext();
    await until(() => phase !== 'back' || undefined, chat.done);
    stream.releaseRest();
    const body = await chat.done;
    phase = 'idle';
    reactions.disable();
    if (unexpected) throw unexpected;
    if (!body.trimEnd().endsWith('data: [DONE]')) throw new Error(`the stream did not end with [DONE]:\n${body}`);
    if (!sample.frontDoor || !sample.wayOut || !sample.wayBack || !sample.reactions) throw new Error('a phase boundary was not seen');
    return sample as WalkSample;
  };
}

/** Polls `check` until it gives a value; gives up when `failed` rejects (the chat ended in an error). */
async function until<T>(check: () => T | undefined, failed: Promise<unknown>): Promise<T> {
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    await Promise.race([sleep(5), failed]);
  }
}
