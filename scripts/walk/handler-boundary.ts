import { operationRoutes } from '../../generated/operations.js';
import type { CoverageSnapshots } from './coverage-snapshots.js';

interface RemoteObject {
  objectId?: string;
  value?: unknown;
}

/**
 * Calls `onStart` each time the gateway enters the handler of `operationId`, without touching the server's
 * code. The handler is found on the heap, as the gateway keeps it: in the one table keyed by every
 * operationId of the spec (a Map or a plain object), whose entry for the operation is the handler or the
 * list of steps a request runs through, the handler last (http/front-door/ keeps the latter). A breakpoint
 * on calls of that function gets a condition that calls `onStart` and answers false, so the debugger never
 * pauses. Throws, saying so, when no such table is left on the heap.
 */
export function onHandlerStart(coverage: CoverageSnapshots, operationId: string, onStart: () => void): void {
  const hook = `__walkHandlerStarted_${operationId}`;
  (globalThis as Record<string, unknown>)[hook] = onStart;
  coverage.post('Debugger.enable');
  const ids = operationRoutes.map((route) => route.operationId);
  let handler: RemoteObject | undefined;
  for (const prototype of ['Map.prototype', 'Object.prototype']) {
    const prototypeObject = coverage.post<{ result: RemoteObject }>('Runtime.evaluate', { expression: prototype }).result;
    const objects = coverage.post<{ objects: RemoteObject }>('Runtime.queryObjects', { prototypeObjectId: prototypeObject.objectId }).objects;
    const found = coverage.post<{ result: RemoteObject; exceptionDetails?: { exception?: { description?: string } } }>('Runtime.callFunctionOn', {
      objectId: objects.objectId,
      functionDeclaration: `function (ids, id) {
        const entry = (table, key) => {
          try {
            return table instanceof Map ? Map.prototype.get.call(table, key) : Object.getOwnPropertyDescriptor(table, key)?.value;
          } catch {
            return undefined; // a proxy, or a subclass that refuses
          }
        };
        const handlerIn = (value) => (typeof value === 'function' ? value : Array.isArray(value) && typeof value.at(-1) === 'function' ? value.at(-1) : undefined);
        const table = this.find((table) => ids.every((key) => handlerIn(entry(table, key))));
        return table && handlerIn(entry(table, id));
      }`,
      arguments: [{ value: ids }, { value: operationId }],
    });
    if (found.exceptionDetails) throw new Error(`looking for the handler failed: ${found.exceptionDetails.exception?.description}`);
    handler = found.result;
    if (handler.objectId) break;
  }
  if (!handler?.objectId) throw new Error(`found no table on the heap with a handler for each of the spec's ${ids.length} operationIds`);
  coverage.post('Debugger.setBreakpointOnFunctionCall', { objectId: handler.objectId, condition: `globalThis.${hook}(), false` });
}
