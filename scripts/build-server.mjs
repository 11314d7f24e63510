#!/usr/bin/env node
// Bundles the server into build/gateway.mjs, which `npm start` runs with plain Node (and the key CLI into
// build/keys.mjs, which the package's command runs, bin/unified-model-api.mjs): production runs no
// TypeScript loader (tsx keeps a module-hooks thread and ~30 MB, and maps every error stack through source
// maps). Packages stay external (installed ones are loaded as usual, native ones included); only our own
// TypeScript is bundled. Takes about a second, so `npm start` builds each time and never runs stale code.
// Files the server reads at run time are found from the project root (server/project-root.ts).
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'build');

await esbuild.build({
  entryPoints: { gateway: join(root, 'server/main.ts'), keys: join(root, 'server/cli/keys.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  packages: 'external',
  // Stack traces in logs point at the sources (node --enable-source-maps reads it only when asked).
  // Mappings only, without the sources' text: the published package ships the bundle, not the sources.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
});
console.log(`built ${relative(root, join(outdir, 'gateway.mjs'))} and keys.mjs`);
