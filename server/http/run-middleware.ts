import type { Request, RequestHandler, Response } from 'express';

/**
 * Calls each middleware with a `next` that calls the following one, as Express's router does: one that
 * throws, rejects or passes an error to `next` ends the run at `done(error)`; `done()` once all called
 * `next()`. For chains the gateway runs without a router (front-door/, openapi-validator.ts).
 */
export function runMiddleware(steps: readonly RequestHandler[], req: Request, res: Response, done: (error?: unknown) => void): void {
  let index = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== null) return done(error);
    const step = steps[index++];
    if (!step) return done();
    try {
      const result = step(req, res, next) as unknown;
      if (result instanceof Promise) result.then(undefined, done);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}
