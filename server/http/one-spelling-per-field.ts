import type { RequestHandler } from 'express';
import { contextOf } from '../core/request-context.js';

/**
 * Runs once the body is read and before anything reads it (the reservation, which may write a granted
 * cap into it, the permission checks, the handlers): each field then has one spelling, so every reader
 * sees the value the upstream will get (issue 34). Each protocol says how (its definition's
 * `canonicalise`, from the request context): Chat refuses both spellings of a twin, Gemini folds
 * snake_case to camelCase; Anthropic Messages and Responses have no twins.
 */
export const oneSpellingPerField: RequestHandler = (req, _res, next) => {
  const canonicalise = contextOf(req).protocol?.canonicalise;
  const body: unknown = req.body;
  if (canonicalise && body !== null && typeof body === 'object' && !Array.isArray(body)) req.body = canonicalise(body as Record<string, unknown>);
  next();
};
