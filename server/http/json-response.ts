import type { Express, Response } from 'express';

/**
 * Replaces Express's `res.json` for the whole app with one that does only what an API answer needs:
 * `JSON.stringify`, `content-type` (unless set), `content-length`, one `end`. Express's own goes through
 * `res.send`, which looks up three app settings, re-reads and rewrites the content type, copies bodies over
 * 1,000 bytes into a Buffer to measure them and checks request freshness (If-None-Match) on every call
 * (~5% of a chat completion's CPU: bench/README.md). The gateway uses none of
 * `json spaces`, `json replacer`, `json escape` or ETags. The contract validator's response check wraps
 * `res.json` per response in tests and calls this one underneath.
 */
export function useLeanJsonResponses(app: Express): void {
  app.response.json = function json(this: Response, body: unknown): Response {
    // JSON.stringify(undefined) is undefined: an empty body, as Express sends.
    const text = JSON.stringify(body) ?? '';
    if (!this.hasHeader('content-type')) this.setHeader('content-type', 'application/json; charset=utf-8');
    if (this.statusCode === 204 || this.statusCode === 304) {
      this.removeHeader('content-type');
      this.end();
      return this;
    }
    this.setHeader('content-length', Buffer.byteLength(text));
    // Node leaves the body out of an answer to HEAD by itself.
    this.end(text);
    return this;
  };
}
