import type { StartedAnswer, StreamForm } from './started-answer.js';

/**
 * Sends the begun answer of a routed call to the client, whatever its operation: the http layer's one emit
 * step (http/emit-answer.ts). The front door puts it in the request context, so that the handlers below
 * http/ answer through it without importing the layer above them.
 */
export type AnswerEmitter = <Body, Frame>(answer: StartedAnswer<Body, Frame>, form?: StreamForm) => Promise<void>;
