import type { Server } from 'node:http';
import type { ProtocolFamily } from '../../../generated/operations.js';
import type { ClaimedLine } from '../../batches/batch-types.js';
import type { LineAnswer, LineExecutor } from '../../batches/line-executor.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { UsageRecord } from '../../usage/usage-record.js';
import type { InProcessCallers } from '../in-process-callers.js';
import { statusForFamily } from '../status-for-family.js';
import { sendInProcess } from '../websocket/in-process-request.js';

export interface LineSenderOptions {
  /** The gateway's server, once it listens: lines go through its front door. */
  server(): Server | undefined;
  callers: InProcessCallers;
  /** The stored hash of a key's secret; undefined for a key that no longer exists. */
  keyHashOf(keyId: string): Promise<string | undefined>;
  renderError: Readonly<Record<ProtocolFamily, (error: GatewayError) => unknown>>;
}

/** Headers a client of each batch protocol sends with every request. */
const protocolHeaders: Record<string, Record<string, string>> = {
  anthropic: { 'anthropic-version': '2023-06-01' },
  openai: {},
};

/** How long after its answer's last byte a line's ledger row may still come (it is kept when the response closes). */
const rowGraceMs = 2_000;

/**
 * Runs a batch line as a request through the gateway's own front door, as the WebSocket mode runs each
 * turn (websocket/in-process-request.ts): an in-memory connection the server takes as any other, so the line
 * passes authentication, metering and limits, the contract's validation, permissions, routing, retries,
 * fallbacks and translation exactly as the same request from a client. The connection is tagged with the
 * key that made the batch (in-process-callers.ts): authentication checks that key as it stands now, so a key
 * revoked or an account disabled since gets the line a 401 or 403 in the protocol's shape; and metering hands
 * the row, with the batch's ID, to the runner instead of the ledger's queue.
 */
export function createLineSender(options: LineSenderOptions): LineExecutor {
  return {
    async execute(line: ClaimedLine): Promise<LineAnswer> {
      const server = options.server();
      if (!server) throw new Error('the gateway is not listening yet');
      let keepRow!: (row: UsageRecord) => void;
      const row = new Promise<UsageRecord>((resolve) => (keepRow = resolve));
      const keyHash = (await options.keyHashOf(line.keyId)) ?? 'no-such-key';
      // A line refused by authentication (its key revoked, its account disabled) never reaches metering: no row.
      let admitted = false;
      const sent = sendInProcess(server, {
        method: 'POST',
        path: line.endpoint,
        headers: { 'content-type': 'application/json', ...protocolHeaders[line.protocol] },
        body: line.body,
        tagConnection: (connection) =>
          options.callers.tag(connection, { keyHash, batchLine: { batchId: line.batchId, keepRow }, admitted: () => (admitted = true) }),
      });
      const response = await sent.response;
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const retryAfter = Number(response.headers['retry-after']);
      const requestId = response.headers['x-request-id'];
      let grace: NodeJS.Timeout | undefined;
      const kept = admitted ? await Promise.race([row, new Promise<undefined>((resolve) => (grace = globalThis.setTimeout(resolve, rowGraceMs) as unknown as NodeJS.Timeout))]) : undefined;
      clearTimeout(grace);
      return {
        status: response.statusCode ?? 500,
        body: Buffer.concat(chunks).toString('utf8'),
        requestId: typeof requestId === 'string' ? requestId : null,
        ...(response.headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && { retryAfterSeconds: Math.max(0, retryAfter) }),
        ...(kept && { row: kept }),
        ...(admitted && !kept ? { lateRow: row } : {}),
      };
    },
    errorBody(line, message) {
      const family = familyOf(line.protocol);
      const error = new GatewayError('internal', message);
      return { status: statusForFamily(family, error), body: JSON.stringify(options.renderError[family](error)) };
    },
  };
}

function familyOf(protocol: string): ProtocolFamily {
  return protocol === 'anthropic' ? 'anthropic' : 'openai';
}
