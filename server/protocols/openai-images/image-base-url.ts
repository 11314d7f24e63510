import type { Request } from 'express';

/**
 * The origin clients reach the gateway at, for the image URLs it hands out: `public_base_url` when the
 * config has it (behind a proxy or TLS terminator the request cannot tell), else the request's own
 * protocol and `Host`.
 */
export function imageBaseUrl(req: Request, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}
