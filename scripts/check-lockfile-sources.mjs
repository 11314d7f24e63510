#!/usr/bin/env node
// CI's supply-chain check of package-lock.json: every package comes from the npm registry (no git, tarball
// URL, file or other registry) and carries a sha512 integrity hash, so that `npm ci` installs exactly the
// bytes that were locked. The lockfile is written with `omit-lockfile-registry-resolved`, so a registry
// package has no `resolved` at all, while npm always writes one for any other source: no `resolved`, or one
// on the registry, both mean the registry. Packages bundled inside another (inBundle) come with their
// parent's tarball and have neither.
import { readFile } from 'node:fs/promises';

const registry = 'https://registry.npmjs.org/';
const lock = JSON.parse(await readFile(new URL('../package-lock.json', import.meta.url), 'utf8'));
const problems = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path === '' || entry.inBundle || entry.link) continue;
  if (entry.resolved !== undefined && !entry.resolved.startsWith(registry)) problems.push(`${path}: resolved from ${entry.resolved}, not ${registry}`);
  if (!/^sha512-/.test(entry.integrity ?? '')) problems.push(`${path}: no sha512 integrity hash`);
}
if (problems.length) {
  console.error(`package-lock.json pins packages that do not come whole from the registry:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`package-lock.json: ${Object.keys(lock.packages).length - 1} packages, each from ${registry} with a sha512 integrity hash`);
