import type { RequestHandler } from 'express';
import { contextOf } from '../core/request-context.js';
import { sessionKeyOf } from '../core/session-key.js';

/**
 * Notes the session a generation request belongs to (core/session-key.ts: the session headers, and the body
 * fields its client protocol declares) in its context, for the router to keep the session on one deployment.
 * Runs after authentication, whose account scopes the key, and after the body is read; a request that names
 * no session costs a few property reads.
 */
export const readSessionKey: RequestHandler = (req, _res, next) => {
  const context = contextOf(req);
  if (context.caller?.kind === 'key') {
    context.sessionKey = sessionKeyOf(req.headers, req.body, context.caller.principal.account.id, context.protocol?.sessionFields);
  }
  next();
};
