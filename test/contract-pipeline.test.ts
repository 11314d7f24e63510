// The contract pipeline's guarantees: generated/ is fresh, a spec change without regenerating is caught,
// and an operation without a handler does not compile.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import ts from 'typescript';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

/** The project's own compiler options, so the probe compiles exactly as `npm run typecheck` does. */
function projectCompilerOptions(): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], projectCompilerOptions());
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

async function checkGenerated(specPath: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/generate.mjs', '--check', '--spec', specPath], { cwd: root });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr) };
  }
}

test('generated/ matches the spec', async () => {
  const result = await checkGenerated(join(root, 'openapi/openapi.yaml'));
  assert.ok(result.ok, result.output);
});

test('changing a schema without regenerating is caught', async () => {
  // A copy of the whole tree (the root and the area files it refers to), with one area file edited.
  const dir = await mkdtemp(join(tmpdir(), 'spec-'));
  await cp(join(root, 'openapi'), dir, { recursive: true });
  const schemas = join(dir, 'components/chat.yaml');
  const text = await readFile(schemas, 'utf8');
  const changed = text.replace('      stream: { type: boolean, nullable: true }', '      stream: { type: boolean, nullable: true }\n      extra_flag: { type: boolean }');
  assert.notEqual(changed, text, 'the edit applied');
  await writeFile(schemas, changed);
  const result = await checkGenerated(join(dir, 'openapi.yaml'));
  await rm(dir, { recursive: true, force: true });
  assert.equal(result.ok, false);
  assert.match(result.output, /generated\/ is stale \(openapi\.json, openapi\.yaml, openapi\.prism\.json, api\.ts\)/);
});

test('removing a handler fails the type check', async () => {
  // A copy of create-handlers.ts with one handler deleted, compiled against the real generated types.
  const dir = join(root, 'server');
  const source = await readFile(join(dir, 'create-handlers.ts'), 'utf8');
  const withoutHandler = source.replace(/^\s*listModels: .*\n/m, '');
  assert.notEqual(withoutHandler, source);
  const probe = join(dir, `create-handlers-probe-${process.pid}.ts`);
  await writeFile(probe, withoutHandler);
  try {
    const messages = typeErrors(probe);
    assert.ok(messages.some((message) => message.includes("Property 'listModels' is missing")), messages.join('\n'));
  } finally {
    await rm(probe, { force: true });
  }
});

test('the unmodified routes compile', () => {
  assert.deepEqual(typeErrors(join(root, 'server/create-handlers.ts')), []);
});
