import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OperationHandler } from '../../../generated/operations.js';
import { projectRoot } from '../../project-root.js';

const specPath = join(projectRoot, 'generated/openapi.yaml');

/**
 * `GET /openapi.yaml`: the contract as one YAML document (what /docs renders and what client generators
 * should take). The hand-written openapi/openapi.yaml is a tree of files joined by relative $refs that a
 * browser could not follow, so this serves the bundle `npm run generate` writes. Read once at start-up,
 * not per request.
 */
export async function createOpenApiSpecHandler(): Promise<OperationHandler<'getOpenApiSpec'>> {
  const spec = await readFile(specPath, 'utf8');
  return (_req, res) => {
    res.type('application/yaml; charset=utf-8').send(spec);
  };
}
