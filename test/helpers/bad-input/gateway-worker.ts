// A test gateway (start-gateway.ts) in a worker thread of its own (started by gateway-worker-entry.mjs). In the test's own thread, a case that
// blocks the gateway's event loop would also block the test's timers: the request timeout could not fire
// and a quadratic input could stall the run for an hour. Here the test keeps its clock, and can stop the
// worker. Messages: the parent sends 'logs' (answered with the log lines since the last ask) and 'close'
// (answered once the gateway has shut down, with what its answers broke of OpenAI's published spec).
import { parentPort } from 'node:worker_threads';
import { writeExposureRecord } from '../exposure.js';
import { takeOpenAiViolations } from '../openai-spec/watch-openai-answers.js';
import { startGateway } from '../start-gateway.js';

/** What the worker tells its parent once the gateway listens. */
export interface GatewayReady {
  origin: string;
  adminKey: string;
  apiKey: string;
  dataDir: string;
}

const port = parentPort!;
const gateway = await startGateway();
let logsSent = 0;
port.on('message', async (message: 'logs' | 'close') => {
  if (message === 'logs') {
    port.postMessage({ logs: gateway.logs.slice(logsSent) });
    logsSent = gateway.logs.length;
    return;
  }
  await gateway.close();
  writeExposureRecord();
  // This thread has no tests to fail: what its answers broke of OpenAI's published spec goes to the parent.
  port.postMessage({ closed: true, openAiViolations: takeOpenAiViolations() });
});
port.postMessage({ ready: { origin: gateway.origin, adminKey: gateway.adminKey, apiKey: gateway.apiKey, dataDir: gateway.dataDir } satisfies GatewayReady });
