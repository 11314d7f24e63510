import type { RequestHandler } from 'express';
import { assertOneSpelling } from '../core/one-spelling-per-field.js';
import { contextOf } from '../core/request-context.js';
import type { MeteredProtocol } from '../metering/metered-endpoint.js';
import { chatTwinFields } from '../protocols/openai-chat/chat-params.js';
import { camelCaseFieldNames } from '../protocols/gemini/camel-case-field-names.js';

/** Per protocol, the body with one spelling per field, or a 400 naming both spellings of one it gives twice. */
const canonicalisers: Partial<Record<MeteredProtocol, (body: Record<string, unknown>) => Record<string, unknown>>> = {
  'openai-chat': (body) => {
    assertOneSpelling(body, chatTwinFields);
    return body;
  },
  gemini: camelCaseFieldNames,
};

/**
 * Runs once the body is read and before anything reads it (the reservation, which may write a granted
 * cap into it, the permission checks, the handlers): each field then has one spelling, so every reader
 * sees the value the upstream will get (issue 34). Anthropic Messages and Responses have no twins.
 */
export const oneSpellingPerField: RequestHandler = (req, _res, next) => {
  const protocol = contextOf(req).operation?.metering?.ledgerProtocol;
  const canonicalise = protocol && canonicalisers[protocol];
  const body: unknown = req.body;
  if (canonicalise && body !== null && typeof body === 'object' && !Array.isArray(body)) req.body = canonicalise(body as Record<string, unknown>);
  next();
};
