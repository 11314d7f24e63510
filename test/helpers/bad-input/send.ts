import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';

/** What came back, read in full. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Milliseconds from sending to the status line and headers (the body may take longer: a long stream). */
  headersAfterMs?: number;
}

/** A request that takes longer than this is a hang, and fails the case. */
export const requestTimeoutMs = 10_000;

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8, headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs });

/** Closes the kept-alive connections of `send`. */
export const closeConnections = () => agent.close();

/**
 * Sends a request with exactly this path (no URL parsing: `..` and `%2e` stay as written), headers and
 * bytes; `chunked` sends the body without a content-length. Anything but an answer within the timeout (a
 * reset, a hang) throws.
 */
export async function send(
  origin: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; chunked?: boolean },
): Promise<Answer> {
  const { method, path, headers = {}, body, chunked = false } = options;
  const started = performance.now();
  const response = await agent.request({
    origin,
    path,
    method: method as 'GET',
    headers,
    body: body === undefined ? undefined : chunked ? Readable.from([body]) : body,
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  const headersAfterMs = Math.round(performance.now() - started);
  const parts: Buffer[] = [];
  for await (const part of response.body) parts.push(part as Buffer);
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(parts), headersAfterMs };
}

/**
 * Writes raw bytes to a fresh connection and reads the first answer: until it is complete by its own
 * framing, or the server closes the connection. For what no HTTP client sends, such as bytes a header may
 * not hold or a body shorter than its content-length. `status` is 0 when the server closed without
 * answering; `closeAfterWrite` half-closes the connection once the bytes are out.
 */
export function sendRaw(origin: string, bytes: Buffer, { closeAfterWrite = false } = {}): Promise<Answer & { raw: Buffer }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const parts: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(parts);
      resolve({ ...parseAnswer(raw), raw });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${requestTimeoutMs} ms`));
    }, requestTimeoutMs);
    socket.on('data', (part) => {
      parts.push(part);
      if (isComplete(Buffer.concat(parts))) finish();
    });
    socket.on('error', () => undefined); // A reset after the answer is the server closing a bad connection.
    socket.on('close', finish);
    socket.write(bytes, () => {
      if (closeAfterWrite) socket.end();
    });
  });
}

/** Whether `raw` holds a whole answer by its content-length or its last chunk. */
function isComplete(raw: Buffer): boolean {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return false;
  const head = raw.subarray(0, headEnd).toString('latin1').toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head)?.[1];
  if (length !== undefined) return raw.length >= headEnd + 4 + Number(length);
  return /\r\ntransfer-encoding: *chunked/.test(head) && raw.subarray(headEnd).includes('\r\n0\r\n\r\n');
}

/** Status, headers and (de-chunked) body of the first HTTP answer in `raw`. */
function parseAnswer(raw: Buffer): Answer {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd === -1) break;
    const size = parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
