#!/usr/bin/env node
// Builds the browser parts the gateway serves, from the sources in this repository, into dist/ (not
// committed): runs on `npm install` (the `prepare` script), before `npm test`, and by hand after a change.
//   dist/console/  the console (client/console/, bundled by esbuild; file names carry a content hash)
//   dist/docs/     Swagger UI from swagger-ui-dist, with our page that loads /openapi.yaml
// Nothing is fetched at run time: every script, style and font is a file here.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');

await rm(out, { recursive: true, force: true });
await Promise.all([buildConsole(), buildDocs()]);
console.log(`built ${relative(root, join(out, 'console'))}/ and ${relative(root, join(out, 'docs'))}/`);

async function buildConsole() {
  const dir = join(out, 'console');
  const result = await esbuild.build({
    entryPoints: [join(root, 'client/console/main.tsx')],
    bundle: true,
    outdir: join(dir, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  const page = (await readFile(join(root, 'client/console/index.html'), 'utf8'))
    .replace('<!-- styles -->', style ? `<link rel="stylesheet" href="assets/${style}">` : '')
    .replace('<!-- scripts -->', `<script type="module" src="assets/${script}"></script>`);
  await writeFile(join(dir, 'index.html'), page);
}

async function buildDocs() {
  const dir = join(out, 'docs');
  await mkdir(dir, { recursive: true });
  const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']) await copyFile(join(swaggerUi, file), join(dir, file));
  for (const file of ['index.html', 'init.js', 'docs.css']) await copyFile(join(root, 'client/docs', file), join(dir, file));
}
