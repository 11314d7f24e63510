import type { Dispatcher } from 'undici';
import type { UpstreamHeaders } from './upstream-error.js';

/** A whole upstream answer, body included. */
export interface CollectedResponse {
  status: number;
  headers: UpstreamHeaders;
  body: Buffer;
}

/**
 * Sends one request through `dispatcher` and resolves with the whole answer once its last byte is in.
 * For answers the gateway reads whole anyway (non-streaming JSON): undici's `request` would wrap the body
 * in a Readable stream and an async resource per call, only for `.text()` to drain it again, and that was
 * the largest share of undici's own time per model call (bench/README.md). Aborts on `signal` with its
 * reason, before or after the request is on the wire; the dispatcher's time limits apply as for `request`.
 */
export function collectResponse(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: AbortSignal): Promise<CollectedResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: UpstreamHeaders = {};
    const chunks: Buffer[] = [];
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    // Still waiting for a free connection, the request is aborted as soon as it gets one (onRequestStart);
    // the caller hears of the abort at once either way.
    const onAbort = () => {
      controller?.abort(signal.reason);
      settle(() => reject(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });

    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (signal.aborted) started.abort(signal.reason);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
      },
      onResponseError(_controller, error) {
        settle(() => reject(error));
      },
    });
  });
}
