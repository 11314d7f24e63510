import type { RequestHandler } from 'express';

// The model segment runs to the end, or to a Gemini action such as `:generateContent`.
const modelPath = /^(\/(?:v1|v1beta)\/models\/)(.+?)(:(?:generateContent|streamGenerateContent|countTokens))?$/;

/**
 * A model route's parts: the API version, the model ID (slashes decoded) and the Gemini action, if any.
 * Undefined for other paths.
 */
export function splitModelPath(path: string): { version: 'v1' | 'v1beta'; model: string; action?: string } | undefined {
  const match = modelPath.exec(path);
  if (!match) return undefined;
  let model = match[2]!;
  try {
    model = decodeURIComponent(model);
  } catch {
    // A malformed escape stays as sent; the route will not find such a model anyway.
  }
  return { version: match[1]!.startsWith('/v1beta/') ? 'v1beta' : 'v1', model, action: match[3]?.slice(1) };
}

/**
 * Model IDs may contain `/` (`builtin/echo`). The official SDKs percent-encode it, curl users do not.
 * Encoding the slashes here lets one route template (`/v1/models/{model}`) match both forms; the validator
 * and Express decode the parameter back to the ID.
 */
export const encodeModelPathSegment: RequestHandler = (req, _res, next) => {
  if (!req.url.startsWith('/v1/models/') && !req.url.startsWith('/v1beta/models/')) return next();
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const match = modelPath.exec(path);
  if (match && match[2].includes('/')) {
    const query = queryAt === -1 ? '' : req.url.slice(queryAt);
    req.url = match[1] + match[2].replaceAll('/', '%2F') + (match[3] ?? '') + query;
  }
  next();
};
