import { operationRoutes, type OperationHandlers, type OperationId } from '../../../generated/operations.js';

/** The actions a Gemini model path ends in (`models/{model}:generateContent`), each with one handler. */
export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

/** The spec's spellings of an action: its operationIds start with the action's name (`generateContentByNameV1`). */
type OperationsOfAction<A extends GeminiAction> = Extract<OperationId, `${A}${string}`>;

/** The operations served by the action handlers. */
export type GeminiActionOperations = Pick<OperationHandlers, OperationsOfAction<GeminiAction>>;

/** What every spelling's handler type accepts: a function type assignable to each of them. */
type ServingEach<U> = (U extends unknown ? (each: U) => void : never) extends (each: infer I) => void ? I : never;

/** One handler per action that type-checks as the handler of each of the action's spellings. */
export type GeminiActionHandlers = { [A in GeminiAction]: ServingEach<OperationHandlers[OperationsOfAction<A>]> };

/**
 * Every Gemini operation of the spec with the handler of the action its path ends in: the spec names each
 * action four times (both API versions, and the model named as `models/{model}` or as a resource name),
 * with the same request and answer, so one handler serves all four (GeminiActionHandlers checks that it
 * can). Read from the generated operation table, so a spelling the spec adds is served without a line
 * here; the registry's test and create-handlers.ts's start-up check see that every operation has its handler.
 */
export function operationsByAction(handlers: GeminiActionHandlers): GeminiActionOperations {
  const operations: Partial<GeminiActionOperations> = {};
  for (const route of operationRoutes) {
    const last = route.segments.at(-1);
    const action = last && 'suffix' in last ? last.suffix.replace(/^:/, '') : undefined;
    if (route.protocol === 'gemini' && action !== undefined && action in handlers) Object.assign(operations, { [route.operationId]: handlers[action as GeminiAction] });
  }
  // The loop visits every route, and the spelling of each of the actions' operations starts with the action.
  return operations as GeminiActionOperations;
}
