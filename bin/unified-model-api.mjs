#!/usr/bin/env node
// The command the package installs (`npx unified-model-api`). Its flags become the environment variables
// the server reads (server/config/settings.ts), so the command line and the environment are one set of
// settings, and then the prebuilt bundle runs in this process: build/gateway.mjs for the server, or
// build/keys.mjs for the key CLI. Plain JavaScript: an installed package runs no TypeScript loader.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const help = `usage: unified-model-api [options]              serve (offline: SQLite under --data-dir, built-in models)
       unified-model-api [options] keys <command>   the key CLI: create --name <name> [--json] | list [--json] | revoke <key_id>

options (each also as its environment variable):
  --config <file>     the YAML config (GATEWAY_CONFIG); without it only the offline built-in models
  --port <number>     the port to listen on (PORT, default 8080; 0 picks a free one)
  --host <address>    the address to bind (HOST, default 127.0.0.1)
  --data-dir <dir>    the SQLite store and image files (GATEWAY_DATA_DIR, default ./data)
  -h, --help          this text
  -v, --version       the version

Every other setting is an environment variable: see the README's Configuration and Deployment sections.`;

const flags = { config: 'GATEWAY_CONFIG', port: 'PORT', host: 'HOST', 'data-dir': 'GATEWAY_DATA_DIR' };

// Options stop at the subcommand: what follows `keys` is the key CLI's own.
const argv = process.argv.slice(2);
const subcommandAt = argv.indexOf('keys');
const own = subcommandAt === -1 ? argv : argv.slice(0, subcommandAt);
let values;
try {
  ({ values } = parseArgs({
    args: own,
    options: {
      ...Object.fromEntries(Object.keys(flags).map((name) => [name, { type: 'string' }])),
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n\n${help}`);
  process.exit(2);
}

if (values.help) {
  console.log(help);
} else if (values.version) {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
} else {
  for (const [name, variable] of Object.entries(flags)) {
    // Paths are made absolute here, so that a cluster worker or the key CLI reads the same ones.
    if (values[name] !== undefined) process.env[variable] = name === 'config' || name === 'data-dir' ? resolve(values[name]) : values[name];
  }
  if (subcommandAt === -1) {
    await import('../build/gateway.mjs');
  } else {
    // The key CLI reads its arguments from process.argv, as when it runs alone.
    const bundle = new URL('../build/keys.mjs', import.meta.url);
    process.argv = [process.argv[0], bundle.pathname, ...argv.slice(subcommandAt + 1)];
    await import(bundle.href);
  }
}
