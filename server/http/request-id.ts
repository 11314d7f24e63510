import { randomString } from '../core/random-string.js';
import type { RequestHandler } from 'express';
import { contextOf } from '../core/request-context.js';

const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every response an `x-request-id`: the caller's own when it sent a sane one (so traces join up
 * across hops), otherwise a new one. The OpenAI SDK surfaces it as `_request_id`.
 */
export const assignRequestId: RequestHandler = (req, res, next) => {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && acceptable.test(given) ? given : `req_${randomString(12)}`;
  res.setHeader('x-request-id', id);
  contextOf(req).requestId = id;
  next();
};
