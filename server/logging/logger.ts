import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Paths that could ever hold a credential are redacted as a second line of defence;
 * the first is that nothing logs headers or raw URLs (see http/request-logger.ts).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers["x-goog-api-key"]',
          '*.api_key',
          '*.apiKey',
          '*.key',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
