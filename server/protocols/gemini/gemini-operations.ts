import { operationRoutes, type OperationHandlers } from '../../../generated/operations.js';

/** The actions a Gemini model path ends in (`models/{model}:generateContent`), each with one handler. */
export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

/**
 * Every Gemini operation of the spec with the handler of the action its path ends in: the spec names each
 * action four times (both API versions, and the model named as `models/{model}` or as a resource name),
 * with the same request and answer, so one handler serves all four. Read from the generated operation
 * table, so a spelling the spec adds is served without a line here; the registry's test checks that
 * every operation has its handler.
 */
export function operationsByAction(handlers: Record<GeminiAction, unknown>): Partial<OperationHandlers> {
  const operations: Record<string, unknown> = {};
  for (const route of operationRoutes) {
    const last = route.segments.at(-1);
    const action = last && 'suffix' in last ? last.suffix.replace(/^:/, '') : undefined;
    if (route.protocol === 'gemini' && action !== undefined && action in handlers) operations[route.operationId] = handlers[action as GeminiAction];
  }
  // Each handler is typed by the first spelling of its action (`generateContent`); the others share its types.
  return operations as Partial<OperationHandlers>;
}
