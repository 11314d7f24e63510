// The contract pipeline's guarantees: generated/ is fresh, a spec change without regenerating is caught,
// an operation without a handler does not compile, and neither does an answer or a stream frame of another
// shape than its operation's schema.
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

/**
 * Edits of real renderers, each giving an answer or a stream frame another shape than its operation's
 * schema (generated/), that the type check must refuse: each is compiled as a copy beside its file.
 */
const wrongShapes = [
  {
    name: 'a Messages answer rendered as a chat completion',
    file: 'server/protocols/anthropic-messages/messages-call.ts',
    from: 'json: (response) => renderMessage(response, ids),',
    to: 'json: (response) => renderChatCompletion(response, body.model),',
    imports: "import { renderChatCompletion } from '../openai-chat/render-chat-completion.js';\n",
  },
  {
    name: 'a Messages stream frame that is none of its stream events',
    file: 'server/protocols/anthropic-messages/messages-call.ts',
    from: '(event) => ({ event: event.type, data: event })',
    to: '(event) => ({ event: event.type, data: { ...event, type: `${event.type}.done` } })',
  },
  {
    name: 'a Responses stream event of the wrong shape',
    file: 'server/protocols/openai-responses/render-translated-response.ts',
    from: 'yield { data: event, event: event.type };',
    to: 'yield { data: { ...event, sequence_number: String(event.sequence_number) }, event: event.type };',
  },
  {
    name: "a Gemini pass-through chunk sent on as any text, not as the upstream's answer",
    file: 'server/protocols/gemini/gemini-call.ts',
    from: '({ data }) => ({ data: asUpstreamAnswer<GeminiStreamData>(data) })',
    to: '({ data }) => ({ data })',
  },
  {
    name: 'an image stream event without its image',
    file: 'server/protocols/openai-images/render-image-stream-event.ts',
    from: 'data: { type, b64_json: event.image.data.base64(), created_at: createdAt,',
    to: 'data: { type, created_at: createdAt,',
  },
];

test('an answer or a stream frame of the wrong shape fails the type check', async () => {
  const probes = [];
  try {
    for (const [index, shape] of wrongShapes.entries()) {
      const source = await readFile(join(root, shape.file), 'utf8');
      assert.equal(source.split(shape.from).length, 2, `${shape.file} holds \`${shape.from}\` once`);
      const changed = (shape.imports ?? '') + source.replace(shape.from, shape.to);
      const path = join(root, shape.file.replace(/\.ts$/, `-probe-${process.pid}-${index}.ts`));
      await writeFile(path, changed);
      probes.push({ ...shape, path, line: changed.slice(0, changed.indexOf(shape.to)).split('\n').length });
    }
    // One program for all the probes: they share most of what they import.
    const program = ts.createProgram(
      probes.map((probe) => probe.path),
      projectCompilerOptions(),
    );
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const uncaught = probes.flatMap((probe) => {
      const lines = diagnostics
        .filter((diagnostic) => diagnostic.file?.fileName === probe.path && diagnostic.start !== undefined)
        .map((diagnostic) => diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1);
      return lines.includes(probe.line) ? [] : [`${probe.name}: no type error on line ${probe.line} of ${probe.file}'s copy (errors on lines ${lines.join(', ') || 'none'})`];
    });
    assert.deepEqual(uncaught, []);
  } finally {
    await Promise.all(probes.map((probe) => rm(probe.path, { force: true })));
  }
});

test('the unmodified routes compile', () => {
  assert.deepEqual(typeErrors(join(root, 'server/create-handlers.ts')), []);
});
