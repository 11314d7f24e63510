// Scripted upstreams as the profiles hand them to the suites: a FakeUpstream (or a strict fake relaying to
// one) takes FakeReplies; Bedrock's fake takes its own answers.
import type { BedrockAnswer, FakeBedrock } from '../fake-bedrock.js';
import type { FakeUpstream } from '../fake-upstream.js';
import type { WireProtocol } from '../upstream-fixtures.js';
import type { ProfileSetup, Reply } from './profile.js';

export const fixture = (name: string, protocol: WireProtocol): Reply => ({ fake: { fixture: name, protocol } });

/** The same reply with its chunks `chunkDelayMs` apart (Bedrock's fake always writes its frames in pieces). */
export function paced(reply: Reply, chunkDelayMs: number): Reply {
  if ('bedrock' in reply || !('fixture' in reply.fake || 'sse' in reply.fake)) return reply;
  return { fake: { ...reply.fake, chunkDelayMs } };
}

export function scriptedFake(upstream: FakeUpstream): NonNullable<ProfileSetup['upstream']> {
  return {
    enqueue(...replies) {
      upstream.enqueue(...replies.map((reply) => ('fake' in reply ? reply.fake : wrongKind(reply))));
    },
    requests: upstream.requests,
  };
}

/** Bedrock's fake asks for an answer per call: it takes them in the order they were queued. */
export function scriptedBedrock(bedrock: FakeBedrock, queue: BedrockAnswer[]): NonNullable<ProfileSetup['upstream']> {
  return {
    enqueue(...replies) {
      queue.push(...replies.map((reply) => ('bedrock' in reply ? reply.bedrock : wrongKind(reply))));
    },
    get requests() {
      return bedrock.calls.map((call) => ({ url: `/model/${encodeURIComponent(call.modelId)}/${call.operation}`, headers: call.headers as Record<string, string>, json: call.body }));
    },
  };
}

function wrongKind(reply: Reply): never {
  throw new Error(`this upstream cannot replay ${JSON.stringify(reply).slice(0, 80)}: take the profile's own replies`);
}
