import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { TestGateway } from './start-gateway.js';

/**
 * A multipart `POST /v1/files` as the `openai` SDK frames it (the file, then `purpose`), streamed over
 * node:http with its backpressure. The SDK's own streamed upload (undici) was seen to hold about the whole
 * file on the client's side, which would hide what the gateway holds when both share the process.
 */
export function streamUpload(
  gateway: Pick<TestGateway, 'origin' | 'apiKey'>,
  content: AsyncIterable<Buffer>,
  filename: string,
  purpose: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(gateway.origin);
  const boundary = `----streamed-upload-${Date.now()}`;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: '/v1/files', method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    void (async () => {
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      for await (const chunk of content) if (!req.write(chunk)) await new Promise((drained) => req.once('drain', drained));
      req.end(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n--${boundary}--\r\n`);
    })().catch(reject);
  });
}

// A full collection on demand, so that what is measured is what is alive, not garbage not yet collected.
setFlagsFromString('--expose-gc');
// And the ArrayBuffers that collection finds dead released before it returns. By default V8 frees them on a
// worker thread and takes their bytes off `external` only when the next collection starts, so a sample
// taken just after one still counted every buffer that died since the last: tens of MiB of an upload's
// passed-through chunks (measured: a 200 MB upload read 20-26 MiB over a second collection's figure, Node 20
// and 24 alike), more the more bytes flowed between samples. Whether a buffer is alive is unchanged.
setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const collectGarbage = runInNewContext('gc') as () => void;
const liveBytes = () => {
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/**
 * The peak growth of this process's live memory (heap and buffers, after a full collection, four times a
 * second, or every `intervalMs`) while `work` runs: what an upload holds, whatever garbage it leaves for the collector.
 */
export async function peakGrowth<T>(work: () => Promise<T>, intervalMs = 250): Promise<{ result: T; growth: number }> {
  const baseline = liveBytes();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, liveBytes())), intervalMs);
  try {
    const result = await work();
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}
