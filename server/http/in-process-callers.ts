import type { IncomingMessage } from 'node:http';
import type { BatchLineRequest } from '../core/request-context.js';

/** Who an in-process request (one the gateway sends itself) is made for: a key, by its stored hash. */
export interface InProcessCaller {
  /** The SHA-256 of the key's secret as the key store keeps it: authenticated as the key would be. */
  keyHash: string;
  batchLine: BatchLineRequest;
  /** Told once authentication let the request in: from there on, metering keeps a row for it. */
  admitted(): void;
}

/**
 * The callers of the requests the gateway sends itself through its own front door (the batch runner's lines),
 * by the server's end of the in-memory connection each came on (websocket/in-process-request.ts). Only a
 * connection made in this process can be in it, so no HTTP client can claim to be one.
 */
export class InProcessCallers {
  private readonly byConnection = new WeakMap<object, InProcessCaller>();

  tag(connection: object, caller: InProcessCaller): void {
    this.byConnection.set(connection, caller);
  }

  of(req: IncomingMessage): InProcessCaller | undefined {
    return this.byConnection.get(req.socket);
  }
}
