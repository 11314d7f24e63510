import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { MetricsSource } from './metrics-source.js';

/**
 * `metrics.port`: the metrics on a server of their own, on the loopback address only and without a key
 * (whoever can reach 127.0.0.1 is trusted to read them), so Prometheus can scrape them without the admin
 * key and they never share the gateway's port. `GET /metrics` answers; anything else is a 404.
 */
export function startMetricsServer(port: number, source: MetricsSource, logger: Logger): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at GET /metrics.\n');
      return;
    }
    source.text().then(
      (text) => res.writeHead(200, { 'content-type': source.contentType }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics scrape failed');
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are unavailable right now.\n');
      },
    );
  });
  server.on('error', (error) => logger.error({ err: error, port }, 'the metrics server failed'));
  server.listen(port, '127.0.0.1', () => logger.info({ host: '127.0.0.1', port }, 'metrics listening'));
  return server;
}
