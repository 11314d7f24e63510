import { readFile } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

const specUrl = new URL('../../generated/openapi.json', import.meta.url);

/** The bundled contract, as generated from openapi/openapi.yaml. */
async function loadSpec(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(specUrl, 'utf8')) as Record<string, unknown>;
}

/**
 * express-openapi-validator wired for the gateway: every request is validated; responses only when
 * `validateResponses` (tests and development), because it costs a lot per call. Auth is our own
 * middleware (it renders protocol-specific errors), so the validator's security check is off.
 */
export async function createOpenApiValidator(options: { validateResponses: boolean }): Promise<RequestHandler[]> {
  const apiSpec = withoutExamples(await loadSpec()) as never;
  return OpenApiValidator.middleware({
    apiSpec,
    validateRequests: { allowUnknownQueryParameters: true, removeAdditional: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: options.validateResponses,
    // We rewrite req.url to encode slashes in model IDs (see model-path.ts); match on the rewritten URL.
    useRequestUrl: true,
    // Image uploads are parsed earlier, to disk and with our own limits and errors (http/image-upload.ts).
    fileUploader: false,
  }) as unknown as RequestHandler[];
}

/**
 * The validator compiles media-type objects with Ajv in draft-04 mode, where an `id` inside an example
 * value reads as a schema ID and breaks compilation ("resolves to more than one schema"). Examples are for
 * people and Prism, not for validation, so the validator gets a copy without them.
 */
export function withoutExamples(node: unknown, underProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutExamples(item));
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!underProperties && (key === 'example' || key === 'examples')) continue;
    copy[key] = withoutExamples(value, !underProperties && key === 'properties');
  }
  return copy;
}
