import type { Request, RequestHandler } from 'express';
import type { Credential } from '../../generated/operations.js';
import type { KeyAuthenticator } from '../keys/key-authenticator.js';
import { secretsEqual } from '../keys/key-secret.js';
import { GatewayError } from '../core/gateway-error.js';
import { contextOf } from '../core/request-context.js';
import type { InProcessCallers } from './in-process-callers.js';

/**
 * Checks the caller's key before anything else is done for them (no body parsing, no validation detail
 * for strangers), as the matched operation's security requirement in the spec says: public operations
 * need nothing, admin operations only the admin key, the others an API key presented in one of the ways
 * the operation lists (its security schemes: `Authorization: Bearer`, `x-api-key`, `x-goog-api-key`,
 * `?key=`). The caller is written to the request context for every later step.
 */
export function createAuthentication(options: { keys: KeyAuthenticator; adminKey?: string; inProcess?: InProcessCallers }): RequestHandler {
  return async (req, _res, next) => {
    const context = contextOf(req);
    const operation = context.operation;
    if (!operation) throw new Error(`authentication ran for ${req.method} ${req.path}, which matched no operation`);
    if (operation.security === 'public') return next();
    // A batch line the gateway sends itself: the key that made the batch, checked now as if it were presented.
    const inProcess = options.inProcess?.of(req);
    if (inProcess && operation.security === 'key') {
      const principal = await options.keys.verifyHash(inProcess.keyHash);
      if (!principal) throw new GatewayError('authentication', 'The API key that made this batch has been revoked.');
      if (principal.account.disabled_at !== null) {
        throw new GatewayError('permission', `The account '${principal.account.id}' of this batch is disabled.`, { code: 'account_disabled' });
      }
      context.caller = { kind: 'key', principal };
      context.batchLine = inProcess.batchLine;
      inProcess.admitted();
      return next();
    }
    const secret = presentedKey(req, operation.credentials);
    if (operation.security === 'admin') {
      if (!options.adminKey) {
        throw new GatewayError('authentication', 'The admin API is disabled: set GATEWAY_ADMIN_KEY to enable it.');
      }
      if (!secret || !secretsEqual(secret, options.adminKey)) {
        throw new GatewayError('authentication', 'Admin key required: send Authorization: Bearer <GATEWAY_ADMIN_KEY>.');
      }
      context.caller = { kind: 'admin' };
      return next();
    }
    if (!secret) throw new GatewayError('authentication', `Missing API key: send ${operation.credentials.map(describeCredential).join(' or ')}.`);
    const principal = await options.keys.verify(secret);
    if (!principal) throw new GatewayError('authentication', 'Invalid API key: it is wrong or has been revoked.');
    if (principal.account.disabled_at !== null) {
      throw new GatewayError('permission', `The account '${principal.account.id}' of this API key is disabled.`, { code: 'account_disabled' });
    }
    context.caller = { kind: 'key', principal };
    next();
  };
}

/** The first credential present, in the order the operation lists them. */
function presentedKey(req: Request, credentials: readonly Credential[]): string | undefined {
  for (const credential of credentials) {
    const value = credential.in === 'query' ? queryValue(req.url, credential.name) : single(req.headers[credential.name]);
    const secret = credential.bearer ? /^Bearer\s+(\S+)\s*$/i.exec(value ?? '')?.[1] : value;
    if (secret) return secret;
  }
  return undefined;
}

function describeCredential(credential: Credential): string {
  if (credential.bearer) return 'Authorization: Bearer <key>';
  return credential.in === 'query' ? `?${credential.name}=<key>` : `${credential.name}: <key>`;
}

function queryValue(url: string, name: string): string | undefined {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? undefined : new URLSearchParams(url.slice(queryAt + 1)).get(name) || undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}
