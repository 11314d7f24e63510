import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, for files the server reads beside its code (the contract, the console's
 * build, the ledger thread's script). Found from this module's own URL, one folder down: `server/` in the
 * sources, and `build/` for the production bundle (scripts/build-server.mjs), which is one file one
 * folder down too. So every such path is written once, from the root, and holds in both.
 */
export const projectRoot = fileURLToPath(new URL('../', import.meta.url));
