import type { StreamForm } from './model-call.js';
import type { StartedAnswer } from './route-call.js';

/**
 * Sends the begun answer of a routed call to the client, whatever its operation: the http layer's one emit
 * step (http/emit-answer.ts). The front door puts it in the request context, so that the handlers below
 * http/ answer through it without importing the layer above them.
 */
export type AnswerEmitter = (answer: StartedAnswer, form?: StreamForm) => Promise<void>;

declare module './request-context.js' {
  interface RequestContext {
    /** Sends a routed call's answer: the front door gives every request the http layer's emit step. */
    emit: AnswerEmitter;
  }
}
