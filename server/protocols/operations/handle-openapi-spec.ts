import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OperationHandler } from '../../../generated/operations.js';
import { projectRoot } from '../../project-root.js';

const specPath = join(projectRoot, 'openapi/openapi.yaml');

/**
 * `GET /openapi.yaml`: the hand-written contract as it is in the repository, comments included (what
 * /docs renders and what client generators should take). Read once at start-up, not per request.
 */
export async function createOpenApiSpecHandler(): Promise<OperationHandler<'getOpenApiSpec'>> {
  const spec = await readFile(specPath, 'utf8');
  return (_req, res) => {
    res.type('application/yaml; charset=utf-8').send(spec);
  };
}
