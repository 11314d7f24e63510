import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { validateConverseBody } from './fake-bedrock-body.js';
import { validateTitanEmbedBody } from './fake-bedrock-titan.js';

/**
 * A Bedrock runtime as strict as AWS's, from its public API reference (test/fixtures/bedrock/README.md):
 * `POST /model/{modelId}/converse` and `/converse-stream`, and `/invoke` for Titan Text Embeddings, SigV4 verified by recomputing the signature with
 * the configured secret (AWS's own signer) and comparing, stale `x-amz-date`, wrong region or service and
 * unknown keys refused with Bedrock's error shape (`{"message"}` + `x-amzn-errortype`), bodies validated,
 * and streamed answers as real `application/vnd.amazon.eventstream` frames (prelude, headers, CRC32s).
 */

/** One scripted ConverseStream message: an event, or an exception that ends the stream. */
export type BedrockStreamItem = { event: string; payload: Record<string, unknown> } | { exception: string; payload: { message: string } };

/** What the fake answers one call with: stream items (converse gets them assembled), a model's JSON (invoke), or an HTTP error. */
export type BedrockAnswer = { items: BedrockStreamItem[] } | { json: Record<string, unknown> } | { status: number; errorType: string; message: string };

export interface BedrockCall {
  operation: 'converse' | 'converse-stream' | 'invoke';
  /** The model ID as decoded from the path. */
  modelId: string;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: IncomingMessage['headers'];
}

export interface FakeBedrockOptions {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  answer(call: BedrockCall): BedrockAnswer;
}

export interface FakeBedrock {
  origin: string;
  /** Calls that passed authentication and validation, in order. */
  calls: BedrockCall[];
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const fiveMinutes = 5 * 60 * 1000;

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const calls: BedrockCall[] = [];
  const server = createServer((request, response) => {
    void handle(request, response, options, calls).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, 'InternalServerException', String(error));
      else response.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: FakeBedrockOptions, calls: BedrockCall[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const path = request.url ?? '';
  const route = /^\/model\/([^/?]+)\/(converse|converse-stream|invoke)$/.exec(path);
  if (request.method !== 'POST' || !route) return sendError(response, 404, 'UnknownOperationException', 'Unknown operation');
  const refusal = await verifySignature(request, path, raw, options);
  if (refusal) return sendError(response, 403, refusal.type, refusal.message);
  if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
    return sendError(response, 415, 'UnsupportedMediaTypeException', 'Unsupported Media Type');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return sendError(response, 400, 'SerializationException', 'Unable to parse the request body as JSON');
  }
  const operation = route[2] as BedrockCall['operation'];
  const modelId = decodeURIComponent(route[1]!);
  const problem = operation === 'invoke' ? validateTitanEmbedBody(body, modelId) : validateConverseBody(body);
  if (problem) return sendError(response, 400, 'ValidationException', problem);
  const call: BedrockCall = { operation, modelId, body: body as BedrockCall['body'], headers: request.headers };
  calls.push(call);
  const answer = options.answer(call);
  if ('status' in answer) return sendError(response, answer.status, answer.errorType, answer.message);
  if ('json' in answer) return sendJson(response, 200, answer.json);
  if (call.operation === 'converse') return sendJson(response, 200, assembleConverse(answer.items));
  await streamFrames(response, answer.items);
}

/**
 * SigV4 as AWS checks it (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-troubleshooting.html):
 * the scope must name the configured key, region and `bedrock`, the date must be within five minutes, and the
 * signature recomputed over the signed headers, path and body must equal the one sent.
 */
async function verifySignature(
  request: IncomingMessage,
  path: string,
  body: string,
  options: FakeBedrockOptions,
): Promise<{ type: string; message: string } | undefined> {
  const authorization = String(request.headers.authorization ?? '');
  const parsed = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$/.exec(authorization);
  if (!parsed) return { type: 'IncompleteSignatureException', message: 'Authorization header requires a valid AWS4-HMAC-SHA256 signature.' };
  const [, keyId, day, region, service, signedHeaderList] = parsed as unknown as string[];
  if (keyId !== options.accessKeyId) return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  if (region !== options.region) return { type: 'InvalidSignatureException', message: `Credential should be scoped to a valid region. ` };
  if (service !== 'bedrock') return { type: 'InvalidSignatureException', message: `Credential should be scoped to correct service: 'bedrock'. ` };
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!date) return { type: 'IncompleteSignatureException', message: 'Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.' };
  const signingDate = new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!));
  if (Math.abs(Date.now() - signingDate.getTime()) > fiveMinutes || !amzDate.startsWith(day!)) {
    return { type: 'InvalidSignatureException', message: `Signature expired: ${amzDate} is now earlier or later than the allowed five minutes.` };
  }
  const signedHeaders = signedHeaderList!.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) {
    return { type: 'InvalidSignatureException', message: 'The host and x-amz-date headers must be signed.' };
  }
  if (options.sessionToken !== undefined && (request.headers['x-amz-security-token'] !== options.sessionToken || !signedHeaders.includes('x-amz-security-token'))) {
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name] ?? '')]));
  // The signer trusts a given payload hash header; AWS checks it against the body, so the fake puts the body's own.
  if (headers['x-amz-content-sha256'] !== undefined) headers['x-amz-content-sha256'] = createHash('sha256').update(body).digest('hex');
  const signer = new SignatureV4({
    service: 'bedrock',
    region: options.region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, sessionToken: options.sessionToken },
    sha256: Sha256,
  });
  const [hostname, port] = headers.host!.split(':');
  const expected = await signer.sign(new HttpRequest({ method: request.method, hostname, port: port ? Number(port) : undefined, path, headers, body }), { signingDate });
  if (expected.headers.authorization !== authorization) {
    return {
      type: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    };
  }
  return undefined;
}

/** Writes the frames in pieces that cut through frames and join others, as TCP may deliver them. */
async function streamFrames(response: ServerResponse, items: BedrockStreamItem[]): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
  const bytes = Buffer.concat(items.map(encodeItem));
  const sizes = [5, 37, 200, 3, 64];
  for (let offset = 0, i = 0; offset < bytes.length; i += 1) {
    const size = sizes[i % sizes.length]!;
    response.write(bytes.subarray(offset, offset + size));
    offset += size;
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/** One event stream message; payloads carry Bedrock's random-length `p` padding field. */
export function encodeItem(item: BedrockStreamItem): Uint8Array {
  const string = (value: string) => ({ type: 'string' as const, value });
  const payload = fromUtf8(JSON.stringify({ ...item.payload, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'.slice(0, 1 + (JSON.stringify(item.payload).length % 30)) }));
  if ('event' in item) {
    return codec.encode({ headers: { ':event-type': string(item.event), ':content-type': string('application/json'), ':message-type': string('event') }, body: payload });
  }
  return codec.encode({ headers: { ':exception-type': string(item.exception), ':content-type': string('application/json'), ':message-type': string('exception') }, body: payload });
}

/** The Converse (non-stream) response the same items add up to (API_runtime_Converse.html, Response Syntax). */
function assembleConverse(items: BedrockStreamItem[]): Record<string, unknown> {
  const content: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let stopReason = 'end_turn';
  let usage: unknown;
  for (const item of items) {
    if (!('event' in item)) continue;
    const { payload } = item as { payload: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    const index = payload.contentBlockIndex as number;
    if (item.event === 'contentBlockStart' && payload.start?.toolUse) content[index] = { toolUse: { ...payload.start.toolUse, input: '' } };
    if (item.event === 'contentBlockDelta') {
      if (typeof payload.delta.text === 'string') content[index] = { text: (content[index]?.text ?? '') + payload.delta.text };
      if (payload.delta.toolUse) content[index]!.toolUse.input += payload.delta.toolUse.input;
    }
    if (item.event === 'messageStop') stopReason = payload.stopReason;
    if (item.event === 'metadata') usage = payload.usage;
  }
  for (const block of content) if (block?.toolUse) block.toolUse.input = JSON.parse(block.toolUse.input || '{}');
  return { output: { message: { role: 'assistant', content: content.filter(Boolean) } }, stopReason, usage, metrics: { latencyMs: 1 } };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id', ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, type: string, message: string): void {
  sendJson(response, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

/** A plain text answer as ConverseStream sends it. */
export function textItems(text: string, usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number }, stopReason = 'end_turn'): BedrockStreamItem[] {
  const half = Math.ceil(text.length / 2);
  return [
    { event: 'messageStart', payload: { role: 'assistant' } },
    { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: text.slice(0, half) } } },
    { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: text.slice(half) } } },
    { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
    { event: 'messageStop', payload: { stopReason } },
    { event: 'metadata', payload: { usage: usageOf(usage), metrics: { latencyMs: 12 } } },
  ];
}

/** A tool call answer: the input JSON arrives in two partial pieces. */
export function toolUseItems(toolUseId: string, name: string, input: string, usage: { input: number; output: number }): BedrockStreamItem[] {
  const half = Math.ceil(input.length / 2);
  return [
    { event: 'messageStart', payload: { role: 'assistant' } },
    { event: 'contentBlockStart', payload: { contentBlockIndex: 0, start: { toolUse: { toolUseId, name } } } },
    { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { toolUse: { input: input.slice(0, half) } } } },
    { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { toolUse: { input: input.slice(half) } } } },
    { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
    { event: 'messageStop', payload: { stopReason: 'tool_use' } },
    { event: 'metadata', payload: { usage: usageOf(usage), metrics: { latencyMs: 12 } } },
  ];
}

function usageOf(usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number }): Record<string, number> {
  return {
    inputTokens: usage.input,
    outputTokens: usage.output,
    totalTokens: usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0),
    ...(usage.cacheRead !== undefined ? { cacheReadInputTokens: usage.cacheRead } : {}),
    ...(usage.cacheWrite !== undefined ? { cacheWriteInputTokens: usage.cacheWrite } : {}),
  };
}
