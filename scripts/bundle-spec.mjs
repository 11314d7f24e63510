// Bundles the contract's tree of YAML (openapi/openapi.yaml and the area files it $refs) into one
// document, with Redocly's resolver (the linter's): references between files become
// `#/components/...` references under the names the root gives them, in the root's order.
import { bundle, createConfig } from '@redocly/openapi-core';

/** The bundled spec; throws when a reference does not resolve or an external one is left over. */
export async function bundleSpec(rootPath) {
  const { bundle: result, problems } = await bundle({ ref: rootPath, config: await createConfig({}) });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length) {
    const where = ({ location: [first] = [] }) => (first ? `${first.source?.absoluteRef ?? ''}${first.pointer ?? ''}` : '');
    throw new Error(`cannot bundle ${rootPath}:\n${errors.map((problem) => `  ${where(problem)}: ${problem.message}`).join('\n')}`);
  }
  const spec = result.parsed;
  assertSelfContained(spec);
  return spec;
}

/** The validator and Prism load generated/openapi.json on its own, so every $ref must be internal. */
function assertSelfContained(node, path = '#') {
  if (Array.isArray(node)) return node.forEach((item, index) => assertSelfContained(item, `${path}/${index}`));
  if (node === null || typeof node !== 'object') return;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#/')) {
    throw new Error(`${path}: the bundle kept the external $ref '${node.$ref}'`);
  }
  for (const [key, value] of Object.entries(node)) assertSelfContained(value, `${path}/${key}`);
}
