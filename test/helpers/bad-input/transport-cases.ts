import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

/**
 * Content types for a JSON body. `judge`: read as JSON (the body's own verdict decides); `refuse`: not a
 * JSON media type the contract takes, whatever the body (a 415, or a 400 once the body reads wrongly).
 * The quoted charset is read by body-parser rather than the gateway's own reader (server/http/json-body.ts).
 */
export const contentTypes: Array<{ type: string | undefined; verdict: 'judge' | 'refuse' }> = [
  { type: 'application/json', verdict: 'judge' },
  { type: 'Application/JSON', verdict: 'judge' },
  { type: 'application/json; charset=utf-8', verdict: 'judge' },
  { type: 'application/json;charset=UTF-8', verdict: 'judge' },
  { type: 'application/json ; charset="utf-8"', verdict: 'judge' },
  { type: undefined, verdict: 'refuse' },
  { type: '', verdict: 'refuse' },
  { type: 'text/plain', verdict: 'refuse' },
  { type: 'text/json', verdict: 'refuse' },
  { type: 'application/x-www-form-urlencoded', verdict: 'refuse' },
  { type: 'multipart/form-data; boundary=xyz', verdict: 'refuse' },
  { type: 'application/xml', verdict: 'refuse' },
  { type: 'application/octet-stream', verdict: 'refuse' },
  { type: 'application/jsonx', verdict: 'refuse' },
  { type: 'application/vnd.api+json', verdict: 'refuse' },
  { type: 'application/json-patch+json', verdict: 'refuse' },
  { type: '*/*', verdict: 'refuse' },
  { type: 'application/*', verdict: 'refuse' },
  { type: 'application/json; charset=latin1', verdict: 'refuse' },
  { type: 'application/json; charset=utf-16', verdict: 'refuse' },
  { type: 'application/json; charset=nonsense', verdict: 'refuse' },
  { type: 'application/json, text/plain', verdict: 'refuse' },
  { type: 'json', verdict: 'refuse' },
  { type: `application/${'x'.repeat(4_000)}`, verdict: 'refuse' },
];

/**
 * Content encodings. `judge`: the body arrives decoded and its own verdict decides; `refuse`: the bytes
 * are not what the header says, or the encoding is unknown.
 */
export const contentEncodings: Array<{ name: string; header: string; encode: (body: Buffer) => Buffer; verdict: 'judge' | 'refuse' }> = [
  { name: 'gzip', header: 'gzip', encode: (body) => gzipSync(body), verdict: 'judge' },
  { name: 'deflate', header: 'deflate', encode: (body) => deflateSync(body), verdict: 'judge' },
  { name: 'br', header: 'br', encode: (body) => brotliCompressSync(body), verdict: 'judge' },
  { name: 'identity', header: 'identity', encode: (body) => body, verdict: 'judge' },
  { name: 'gzip header, plain bytes', header: 'gzip', encode: (body) => body, verdict: 'refuse' },
  { name: 'gzip cut short', header: 'gzip', encode: (body) => gzipSync(body).subarray(0, 12), verdict: 'refuse' },
  { name: 'deflate header, gzip bytes', header: 'deflate', encode: (body) => gzipSync(body), verdict: 'refuse' },
  { name: 'unknown encoding', header: 'x-unknown', encode: (body) => body, verdict: 'refuse' },
  { name: 'zstd', header: 'zstd', encode: (body) => body, verdict: 'refuse' },
  { name: 'gzip twice', header: 'gzip, gzip', encode: (body) => gzipSync(gzipSync(body)), verdict: 'refuse' },
  // 8 MiB of spaces after the body: a few kilobytes on the wire, eight times the limit once inflated.
  { name: 'gzip bomb', header: 'gzip', encode: (body) => gzipSync(Buffer.concat([body, Buffer.alloc(8 * 1024 * 1024, 0x20)])), verdict: 'refuse' },
];

/**
 * Requests no HTTP client library would send, written byte for byte: malformed request lines, framing
 * that contradicts itself (request smuggling shapes), headers HTTP does not allow, heads over Node's 16 KiB.
 * `{head}` stands for the method, path and valid credentials of an operation. Node's HTTP parser refuses
 * most of these before the gateway sees them, with a bare 400 or 431.
 */
export const malformedRequests: Array<{ name: string; bytes: (target: { method: string; path: string; auth: string }) => Buffer; thenClose?: true }> = [
  { name: 'unknown HTTP version', bytes: (t) => text(`${t.method} ${t.path} HTTP/9.9\r\nHost: x\r\n${t.auth}\r\n`) },
  { name: 'unknown method', bytes: (t) => text(`BREW ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}\r\n`) },
  { name: 'path without a slash', bytes: (t) => text(`${t.method} ${t.path.slice(1)} HTTP/1.1\r\nHost: x\r\n${t.auth}\r\n`) },
  // No client sends a fragment; Express's router and the contract validator read one differently.
  { name: 'fragment in the path', bytes: (t) => text(`${t.method} ${t.path.replace(/\/[^/]*$/, '/#x')} HTTP/1.1\r\nHost: x\r\n${t.auth}\r\n`) },
  { name: 'raw bytes in the path', bytes: (t) => Buffer.concat([text(`${t.method} ${t.path}`), Buffer.from([0xff, 0x00, 0x20, 0x7f]), text(` HTTP/1.1\r\nHost: x\r\n${t.auth}\r\n`)]) },
  { name: 'content-length and chunked', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`) },
  { name: 'two content-lengths', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`) },
  { name: 'negative content-length', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`) },
  { name: 'content-length not a number', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: 1e3\r\n\r\n{}`) },
  { name: 'chunk size not hex', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`) },
  { name: 'chunk longer than said', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`) },
  { name: 'unknown transfer-encoding', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nTransfer-Encoding: foo\r\n\r\n`) },
  { name: 'NUL in a header', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n${t.auth}\r\n`) },
  { name: 'header line without a colon', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\nbroken\r\n${t.auth}\r\n`) },
  { name: 'space before the colon', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\nX-A : b\r\n${t.auth}\r\n`) },
  { name: 'folded header', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n${t.auth}\r\n`) },
  { name: 'bare LF line ends', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\nHost: x\n${t.auth.replace('\r\n', '\n')}\n`) },
  { name: '20 KiB path', bytes: (t) => text(`${t.method} ${t.path}?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${t.auth}\r\n`) },
  { name: '20 KiB header', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n${t.auth}\r\n`) },
  { name: '3,000 headers', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${'X-Header-Name: value-value\r\n'.repeat(3_000)}${t.auth}\r\n`) },
  {
    name: 'body shorter than its content-length, then gone',
    bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`),
    thenClose: true,
  },
  { name: 'body longer than its content-length', bytes: (t) => text(`${t.method} ${t.path} HTTP/1.1\r\nHost: x\r\n${t.auth}Content-Type: application/json\r\nContent-Length: 10\r\n\r\n{"model":"builtin/echo","x":1}`) },
];

const text = (value: string) => Buffer.from(value, 'latin1');
