import { Agent, createServer, request, type Server } from 'node:http';

/**
 * The floor for one Node.js HTTP hop: a reverse proxy that forwards method, path, headers and body bytes to
 * the upstream over pooled keep-alive connections and pipes the answer back, parsing no body. The gateway
 * cannot be faster than this on the same machine; how much slower it is, is what the bench reports.
 */
export function createReferenceProxy(upstreamPort: number): Server {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const server = createServer((req, res) => {
    const upstreamRequest = request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
      (upstreamResponse) => {
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(res);
      },
    );
    upstreamRequest.on('error', () => res.destroy());
    // A client that leaves mid-answer must not keep the upstream busy.
    res.on('close', () => {
      if (!res.writableFinished) upstreamRequest.destroy();
    });
    req.pipe(upstreamRequest);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
