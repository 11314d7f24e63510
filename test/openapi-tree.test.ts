// The contract is one tree of YAML: openapi/openapi.yaml and the area files it $refs. These tests hold the
// tree together: every file under openapi/ is reached from the root, every reference resolves, and the
// bundle in generated/ (whose freshness contract-pipeline.test.ts checks) refers only to itself.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { parse } from 'yaml';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const specDir = join(root, 'openapi');

/** Every `$ref` string in a parsed document, with the JSON pointer of the object that holds it. */
function refsOf(node: unknown, at = '#'): { ref: string; at: string }[] {
  if (node === null || typeof node !== 'object') return [];
  const own = typeof (node as { $ref?: unknown }).$ref === 'string' ? [{ ref: (node as { $ref: string }).$ref, at }] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => refsOf(value, `${at}/${key}`))];
}

/** Follows a JSON pointer (`/a/b~1c`) into a parsed document; undefined when a step is missing. */
function follow(document: unknown, pointer: string): unknown {
  const steps = pointer.split('/').slice(1).map((step) => decodeURIComponent(step).replaceAll('~1', '/').replaceAll('~0', '~'));
  return steps.reduce<unknown>((node, step) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined), document);
}

async function yamlFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.yaml')).map((entry) => join(entry.parentPath, entry.name));
}

test('every file under openapi/ is reached from the root (or an AsyncAPI document), and every reference between files resolves', async () => {
  const parsed = new Map<string, unknown>();
  const load = async (file: string) => {
    if (!parsed.has(file)) parsed.set(file, parse(await readFile(file, 'utf8').catch(() => 'null')));
    return parsed.get(file);
  };
  const documents = new Map<string, unknown>();
  const unresolved: string[] = [];
  // The AsyncAPI documents of the channels beside the HTTP API (asyncapi/) are roots too: their messages
  // reference the same schemas.
  const asyncApiRoots = (await yamlFilesUnder(join(specDir, 'asyncapi'))).sort();
  assert.ok(asyncApiRoots.length > 0, 'the WebSocket channel is described');
  const queue = [join(specDir, 'openapi.yaml'), ...asyncApiRoots];
  while (queue.length) {
    const file = queue.shift()!;
    if (documents.has(file)) continue;
    const document = await load(file);
    documents.set(file, document);
    for (const { ref, at } of refsOf(document)) {
      const [path, pointer = ''] = ref.split('#');
      const target = path ? resolve(dirname(file), path) : file;
      if (follow(await load(target), pointer) === undefined) unresolved.push(`${relative(root, file)}${at}: ${ref}`);
      if (path) queue.push(target);
    }
  }
  assert.deepEqual(unresolved, []);
  const unreached = (await yamlFilesUnder(specDir)).filter((file) => !documents.has(file)).map((file) => relative(root, file));
  assert.deepEqual(unreached, [], 'files no $ref leads to from openapi/openapi.yaml or openapi/asyncapi/');
  assert.ok(documents.size > 2, 'the root refers to area files');
});

test('the bundle in generated/ refers only to itself, and every reference resolves', async () => {
  const bundle = JSON.parse(await readFile(join(root, 'generated/openapi.json'), 'utf8')) as unknown;
  const refs = refsOf(bundle);
  assert.ok(refs.length > 100, 'the bundle has references');
  assert.deepEqual(refs.filter(({ ref }) => !ref.startsWith('#/') || follow(bundle, ref.slice(1)) === undefined), []);
});

test('a reference that does not resolve stops the generator, naming the file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'spec-tree-'));
  try {
    await cp(specDir, dir, { recursive: true });
    const paths = join(dir, 'paths/chat.yaml');
    const text = await readFile(paths, 'utf8');
    const broken = text.replace("#/schemas/ChatCompletionRequest'", "#/schemas/NoSuchRequest'");
    assert.notEqual(broken, text, 'the edit applied');
    await writeFile(paths, broken);
    const failure = await run(process.execPath, ['scripts/generate.mjs', '--check', '--spec', join(dir, 'openapi.yaml')], { cwd: root }).then(
      () => assert.fail('the generator accepted a broken reference'),
      (error: { stderr?: string }) => String(error.stderr),
    );
    assert.match(failure, /paths\/chat\.yaml#\/~1v1~1chat~1completions\/post\/requestBody\/content\/application~1json\/schema: Can't resolve \$ref/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
