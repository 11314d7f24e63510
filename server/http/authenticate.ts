import type { Request, RequestHandler } from 'express';
import type { KeyAuthenticator } from '../keys/key-authenticator.js';
import { secretsEqual } from '../keys/key-secret.js';
import { GatewayError } from './gateway-error.js';
import { protocolFamilyForRequest, type ProtocolFamily } from './protocol-family.js';

/**
 * Routes anyone may call: the health probe, the contract itself and temporary image URLs (their
 * unguessable names are the credential). Everything else needs a key. A test checks this list against the
 * spec's `security: []`. (The console and docs pages are served before authentication; see app.ts.)
 */
export function isPublicRoute(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return path === '/healthz' || path === '/openapi.yaml' || path.startsWith('/v1/images/files/');
}

/**
 * Checks the caller's key before anything else is done for them (no body parsing, no validation detail
 * for strangers). Admin routes take only the admin key; other routes take an API key from the headers the
 * family's official SDK sends.
 */
export function createAuthentication(options: { keys: KeyAuthenticator; adminKey?: string }): RequestHandler {
  return async (req, res, next) => {
    if (isPublicRoute(req.method, req.path)) return next();
    const family = protocolFamilyForRequest(req);
    const secret = presentedKey(req, family);
    if (family === 'admin') {
      if (!options.adminKey) {
        throw new GatewayError('authentication', 'The admin API is disabled: set GATEWAY_ADMIN_KEY to enable it.');
      }
      if (!secret || !secretsEqual(secret, options.adminKey)) {
        throw new GatewayError('authentication', 'Admin key required: send Authorization: Bearer <GATEWAY_ADMIN_KEY>.');
      }
      res.locals.admin = true;
      return next();
    }
    if (!secret) throw new GatewayError('authentication', missingKeyMessage[family]);
    const principal = await options.keys.verify(secret);
    if (!principal) throw new GatewayError('authentication', 'Invalid API key: it is wrong or has been revoked.');
    if (principal.account.disabled_at !== null) {
      throw new GatewayError('permission', `The account '${principal.account.id}' of this API key is disabled.`, { code: 'account_disabled' });
    }
    res.locals.principal = principal;
    next();
  };
}

const missingKeyMessage: Record<Exclude<ProtocolFamily, 'admin'>, string> = {
  openai: 'Missing API key: send Authorization: Bearer <key>.',
  anthropic: 'Missing API key: send x-api-key: <key> or Authorization: Bearer <key>.',
  gemini: 'Missing API key: send x-goog-api-key: <key>, ?key=<key> or Authorization: Bearer <key>.',
};

function presentedKey(req: Request, family: ProtocolFamily): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  if (family === 'anthropic') return single(req.headers['x-api-key']);
  if (family === 'gemini') {
    return single(req.headers['x-goog-api-key']) ?? new URL(req.url, 'http://gateway').searchParams.get('key') ?? undefined;
  }
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}
