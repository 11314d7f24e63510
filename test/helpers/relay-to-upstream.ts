import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeUpstream } from './fake-upstream.js';

/**
 * Hands a call a strict provider fake has accepted to a scripted FakeUpstream and streams its answer back
 * as it comes, so the fake checks the provider's rules while the test scripts the answer (fixtures).
 */
export async function relayToUpstream(upstream: FakeUpstream, url: string, body: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
  const reply = await fetch(`${upstream.origin}${url}`, { method: 'POST', headers, body });
  const replyHeaders: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(name)) replyHeaders[name] = value;
  });
  response.writeHead(reply.status, replyHeaders);
  response.flushHeaders();
  if (reply.body) for await (const chunk of reply.body as unknown as AsyncIterable<Uint8Array>) response.write(chunk);
  response.end();
}
