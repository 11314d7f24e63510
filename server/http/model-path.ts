import type { RequestHandler } from 'express';

// The model segment runs to the end, or to a Gemini action such as `:generateContent`.
const modelPath = /^(\/(?:v1|v1beta)\/models\/)(.+?)(:(?:generateContent|streamGenerateContent|countTokens))?$/;

/**
 * Model IDs may contain `/` (`builtin/echo`). The official SDKs percent-encode it, curl users do not.
 * Encoding the slashes here lets one route template (`/v1/models/{model}`) match both forms; the validator
 * and Express decode the parameter back to the ID.
 */
export const encodeModelPathSegment: RequestHandler = (req, _res, next) => {
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const match = modelPath.exec(path);
  if (match && match[2].includes('/')) {
    const query = queryAt === -1 ? '' : req.url.slice(queryAt);
    req.url = match[1] + match[2].replaceAll('/', '%2F') + (match[3] ?? '') + query;
  }
  next();
};
