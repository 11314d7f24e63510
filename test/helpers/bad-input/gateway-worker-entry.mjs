// The worker thread's entry, in plain JavaScript: on Node 20 a worker does not inherit tsx's loader
// (`--import tsx` in its execArgv is not applied), so it loads the TypeScript through tsx's own API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./gateway-worker.ts', import.meta.url);
