/**
 * The Claude Agent SDK as a user runs it against the gateway (test/agents/clients/claude-agent-sdk.ts runs this
 * with the Node installed beside the SDK):
 *
 *   node run-claude-agent-sdk.mjs <install dir> <model> <prompt>
 *
 * The SDK is a library that runs Claude Code (the native build of its platform package, which it finds beside
 * itself), and Claude Code reads the gateway's address and key from the environment as `claude` does. One
 * `query()`, one-shot; the result's text is printed. The SDK comes from the pinned install in the agents'
 * cache, never from the repository's node_modules.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [installDir, model, prompt] = process.argv.slice(2);
if (!installDir || !model || !prompt) {
  console.error('usage: node run-claude-agent-sdk.mjs <install dir> <model> <prompt>');
  process.exit(2);
}
// Resolved as a program in the install folder would resolve it (the package's "exports"); the SDK is ESM only.
const sdk = createRequire(join(installDir, 'package.json')).resolve('@anthropic-ai/claude-agent-sdk');
const { query } = await import(pathToFileURL(sdk).href);

let result;
for await (const message of query({
  prompt,
  options: {
    model,
    cwd: process.cwd(),
    // As the claude-code client: only Read offered (the built-in model calls the first tool offered) and
    // allowed (nobody is there to ask for permission).
    tools: ['Read'],
    allowedTools: ['Read'],
    // No settings files (the SDK's isolation mode) and no transcript on disk: a one-shot run.
    settingSources: [],
    persistSession: false,
    stderr: (text) => process.stderr.write(text),
  },
})) {
  if (message.type === 'result') result = message;
}
if (result?.type !== 'result' || result.subtype !== 'success' || result.is_error) {
  console.error(`claude-agent-sdk: no successful result: ${JSON.stringify(result ?? null)}`);
  process.exit(1);
}
console.log(result.result);
