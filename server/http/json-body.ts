import { isUtf8 } from 'node:buffer';
import type { Request, RequestHandler } from 'express';
import { GatewayError } from '../core/gateway-error.js';
import { contextOf } from '../core/request-context.js';

/**
 * Reads JSON request bodies. The common case (`application/json`, UTF-8, no `content-encoding`) is read
 * here in one pass: collect the bytes up to `limit`, decode, `JSON.parse`. That skips body-parser's
 * per-request media-type parsing, charset and encoding look-ups and stream wrappers (~4% of a chat
 * completion's CPU: bench/README.md). Every other request (other JSON media types, other charsets,
 * compressed bodies, no body) goes to `general`, body-parser, unchanged.
 *
 * Failures carry body-parser's error `type`s (`entity.too.large`, `entity.parse.failed`,
 * `request.aborted`), so they become the same client errors either way (to-gateway-error.ts). Bytes that
 * are not UTF-8 are refused rather than decoded to U+FFFD, which would silently change the prompt: here,
 * and by `general` when it is given {@link requireUtf8} as its `verify`. Bodies from either reader that
 * nest deeper than `maxNestingLevels` are refused (see there).
 */
export function createJsonBodyReader(options: { limit: number; general: RequestHandler }): RequestHandler {
  const { limit, general } = options;
  return (req, res, next) => {
    // The validator reads a body without a media type as no body at all, which an operation whose body is
    // optional (POST /v1/conversations) then served with the body silently dropped.
    if (!req.headers['content-type'] && carriesBody(req) && contextOf(req).operation?.body === 'json') return refuseAfterBody(req, untyped(), next);
    if (!isPlainJson(req)) return general(req, res, (error?: unknown) => next(error ?? nestingError(req.body)));
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return refuseAfterBody(req, tooLarge(limit), next);

    const parts: Buffer[] = [];
    let received = 0;
    let failed = false;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        failed = true;
        req.off('data', onData);
        return refuseAfterBody(req, tooLarge(limit), next);
      }
      parts.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (failed) return;
      const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, received);
      try {
        requireUtf8(req, res, bytes);
        req.body = parseObject(bytes.toString('utf8'));
      } catch (error) {
        return next(Object.assign(error as Error, { status: 400, type: 'entity.parse.failed' }));
      }
      next(nestingError(req.body));
    });
    req.once('close', () => {
      if (!req.complete && !failed) next(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' }));
    });
  };
}

/** `application/json` with no charset or UTF-8: the one JSON media type read here (and pre-checked, body-precheck.ts). */
export function isPlainJsonType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const normalized = type.length === 16 ? type.toLowerCase() : type.toLowerCase().replace(/\s+/g, '');
  return normalized === 'application/json' || normalized === 'application/json;charset=utf-8';
}

/** A plain JSON type (above), not compressed, with a body (a length or chunked). */
function isPlainJson(req: Request): boolean {
  if (!isPlainJsonType(req.headers['content-type'])) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  return carriesBody(req);
}

/** Whether the request has a body: a length above 0, or chunked. */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

function untyped(): GatewayError {
  return new GatewayError('unsupported_media_type', 'The request has a body but no Content-Type: send it as application/json.', { code: 'unsupported_media_type' });
}

/** A request body must be a JSON object (the contract then says which); `[` etc. are parsed for the validator to refuse. */
function parseObject(text: string): unknown {
  // body-parser's answer to an empty body, a common client mistake: the validator then names what is missing.
  if (text.length === 0) return {};
  const first = /^[\t\n\r ]*(.)/.exec(text)?.[1];
  // What body-parser's strict mode refuses, with a message of its kind.
  if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected ${first === undefined ? 'end of JSON input' : `token '${first}': a JSON object was expected`}`);
  return JSON.parse(text);
}

/**
 * RFC 8259 §8.1: JSON exchanged between systems must be UTF-8. Shaped as body-parser's `verify` option,
 * so that the general reader (compressed bodies, other JSON media types) refuses the same bytes; a
 * throw there becomes the error's status and type. body-parser would decode a declared `charset=utf-16`
 * (say) itself, and a body of one byte then decodes to nothing, which it reads as `{}`: a declared charset
 * other than UTF-8 is refused as unsupported (415), whatever the bytes.
 */
export function requireUtf8(_req: unknown, _res: unknown, bytes: Buffer, encoding?: string): void {
  if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
    throw Object.assign(new Error(`unsupported charset "${encoding.toUpperCase()}"`), { status: 415, type: 'charset.unsupported', charset: encoding });
  }
  if (!isUtf8(bytes)) throw Object.assign(new SyntaxError('the bytes are not valid UTF-8'), { status: 400, type: 'entity.parse.failed' });
}

/**
 * How deep arrays and objects may nest in a request body (serde_json's default limit). JSON.parse copes
 * with any depth, but code that walks a body later recurses: JSON.stringify of a tool's schema in the token
 * counter overflowed the stack at about 5,000 levels (test/bad-input-bodies.test.ts), a 500 for what is the
 * client's mistake. No real request comes near this.
 */
const maxNestingLevels = 128;

/** A client error when `body` nests deeper than `maxNestingLevels`, else undefined. */
function nestingError(body: unknown): GatewayError | undefined {
  if (!nestsDeeper(body, maxNestingLevels)) return undefined;
  return new GatewayError('invalid_request', `The request body nests arrays and objects more than ${maxNestingLevels} levels deep.`, { code: 'nesting_too_deep' });
}

/** Recursion bounded by `levels`, so the check itself cannot overflow. */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) return value.some((item) => nestsDeeper(item, levels - 1));
  for (const key in value) if (nestsDeeper((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

function tooLarge(limit: number): Error {
  return Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large', limit });
}

/** Answers once the rest of the body has been read and dropped, as body-parser does, so the connection stays usable. */
function refuseAfterBody(req: Request, error: Error, next: (error: Error) => void): void {
  req.resume();
  if (req.complete) return next(error);
  req.once('end', () => next(error));
  req.once('close', () => {
    if (!req.complete) next(error);
  });
}
