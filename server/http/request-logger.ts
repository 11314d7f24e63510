import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { contextOf } from '../core/request-context.js';

/**
 * One log line per finished request: method, path, status, duration, the key's ID (never its secret), and
 * for model calls the deployment that answered and the token usage read from the upstream.
 * The query string is left out entirely because Gemini clients may put the key there (`?key=`).
 */
export function createRequestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // Below `info` (LOG_LEVEL=warn) there is no line to write, so nothing to wait for.
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    const path = req.path;
    const context = contextOf(req);
    res.once('close', () => {
      logger.info(
        {
          requestId: context.requestId,
          method: req.method,
          path,
          operation: context.operation?.operationId,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          keyId: context.caller?.kind === 'key' ? context.caller.principal.key.id : undefined,
          route: context.route,
          usage: context.usage,
          completed: res.writableFinished,
        },
        'request',
      );
    });
    next();
  };
}
