#!/usr/bin/env node
// Bundles the server into build/gateway.mjs, which `npm start` runs with plain Node: production runs no
// TypeScript loader (tsx keeps a module-hooks thread and ~30 MB, and maps every error stack through source
// maps). Packages stay external (installed ones are loaded as usual, native ones included); only our own
// TypeScript is bundled. Takes about a second, so `npm start` builds each time and never runs stale code.
// Files the server reads at run time are found from the project root (server/project-root.ts).
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'build/gateway.mjs');

await esbuild.build({
  entryPoints: [join(root, 'server/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  packages: 'external',
  // Stack traces in logs point at the sources (node --enable-source-maps reads it only when asked).
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`built ${relative(root, outfile)}`);
