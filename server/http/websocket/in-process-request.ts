import { request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { Duplex } from 'node:stream';

/**
 * Two connected in-memory streams: what one is written, the other reads. Node's HTTP server takes any
 * duplex stream as a connection (its `connection` event, documented for this), and its client any duplex
 * from `createConnection`, so a request can pass the server without a socket.
 */
function connectedPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  /** Per end, the write of its peer waiting for it to read on: a slow reader holds the writer back. */
  const waiting: ((() => void) | undefined)[] = [undefined, undefined];
  const endOf = (self: number, peer: number) =>
    new Duplex({
      read() {
        const resume = waiting[self];
        waiting[self] = undefined;
        resume?.();
      },
      write(chunk, _encoding, callback) {
        if (ends[peer]!.push(chunk)) callback();
        else waiting[peer] = () => callback();
      },
      final(callback) {
        ends[peer]!.push(null);
        callback();
      },
      destroy(error, callback) {
        ends[peer]!.destroy();
        waiting[peer]?.();
        callback(error);
      },
    });
  ends.push(endOf(0, 1), endOf(1, 0));
  return [ends[0]!, ends[1]!];
}

export interface InProcessRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Told of the server's end of the connection before the server sees it (to tell its request apart later). */
  tagConnection?(connection: Duplex): void;
}

/**
 * Sends one request through `server` as if a client had connected: the server sees a connection of its
 * own (counted by its in-flight requests, drained on shutdown) and serves it through its front door, so
 * the request gets every step an HTTP client's would. Resolves with the response as it begins; `cancel` is a client that leaves.
 */
export function sendInProcess(server: Server, outgoing: InProcessRequest): { response: Promise<IncomingMessage>; cancel: () => void } {
  const [serverEnd, clientEnd] = connectedPair();
  outgoing.tagConnection?.(serverEnd);
  server.emit('connection', serverEnd);
  const sent = request({
    method: outgoing.method,
    path: outgoing.path,
    headers: { ...outgoing.headers, 'content-length': String(Buffer.byteLength(outgoing.body)) },
    // No agent: one request per connection, the pair made for it and ended with it.
    createConnection: () => clientEnd,
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    sent.once('response', resolve);
    sent.once('error', reject);
  });
  sent.end(outgoing.body);
  return {
    response,
    cancel: () => {
      sent.destroy();
      serverEnd.destroy();
    },
  };
}
