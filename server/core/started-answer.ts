import type { GatewayError } from './gateway-error.js';
import type { Usage } from './internal-representation.js';
import type { RouteTarget } from './route-target.js';
import type { StreamFrame } from './stream-frame.js';
import type { StreamedSoFar } from './streamed-so-far.js';

// What a routed call (route-call.ts) hands to the emit step: types only, imported by the request context's
// emit step as much as by the call, so they live apart from both.

/** How a client protocol streams one answer: `Frame` is its operation's stream event schema. */
export interface RenderedStream<Frame> {
  frames: AsyncIterable<StreamFrame<Frame>>;
  /**
   * The frames that tell a failure once the headers have gone, in the protocol's in-band form. Without it
   * a failure ends the stream, for streams whose frames already carry their failures.
   */
  errorFrames?(error: GatewayError): StreamFrame<Frame>[];
}

/**
 * An answer that has begun, in the client's protocol, of which the client has seen nothing yet, typed by its
 * operation's schemas up to the write: `Body` is the operation's response schema (`SuccessBody<OperationId>`),
 * `Frame` its stream event schema (`never` for an operation that does not stream), so that a renderer of the
 * wrong shape fails the type check.
 */
export type StartedAnswer<Body, Frame> = {
  target: RouteTarget;
  /** Request fields left out because the model lacks the capability. */
  droppedParams: string[];
} & (
  | {
      kind: 'json';
      /** The JSON body, made when it is written (an image answer stores its images then). */
      body(): Body | Promise<Body>;
      usage: Usage | undefined;
      /** Images the answer holds, for an image operation. */
      imageCount?: number;
    }
  | (RenderedStream<Frame> & {
      kind: 'stream';
      /**
       * What a generated stream has reported and sent so far (tally-stream.ts): such a stream is read on
       * for its usage once its client left. Without it (images) it is not.
       */
      streamed?: StreamedSoFar;
      /** What an image stream has made so far (core/tally-image-stream.ts): its final images and the usage of the last. */
      images?: ImagesSoFar;
      /**
       * Told once, when the stream is over (before the response ends): `whole` when its frames ran out,
       * rather than failing or being left. Observers wrap it (the ledger learns whether the answer came whole).
       */
      finished?(whole: boolean): void;
    })
);

/** What an image stream has made so far. */
export interface ImagesSoFar {
  /** The final images sent (or made for a client that left). */
  count(): number;
  /** The usage of the whole request, as the latest final image reported it. */
  usage(): Usage | undefined;
}

/**
 * How a stream goes out: server-sent events (named by each frame's `event` where it has one), the same
 * with each frame's data kept to one line, or one JSON array written as it grows.
 */
export type StreamForm = 'sse' | 'sse-one-line' | 'json-array';
