import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP attribute value as the JSON encoding writes it (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding). */
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

interface WireSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: AnyValue }>;
  status?: { code?: number };
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
}

/** One received span, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: 'server' | 'client' | 'other';
  attributes: Record<string, unknown>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  startNs: bigint;
  endNs: bigint;
  serviceName: unknown;
}

export interface OtlpReceiver {
  /** The base URL to configure as the OTLP endpoint (`/v1/traces` is appended). */
  origin: string;
  spans: ReceivedSpan[];
  /** Every request body as received, to search for what must never be exported. */
  rawBodies: string[];
  /** Content types of the export requests. */
  contentTypes: string[];
  close(): Promise<void>;
}

/**
 * A collector's OTLP/HTTP endpoint on 127.0.0.1: accepts `POST /v1/traces` in the JSON encoding (what
 * @opentelemetry/exporter-trace-otlp-http sends) and keeps the spans. Anything else is refused, so an
 * exporter that sent protobuf or another path would fail the test.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const rawBodies: string[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const type = request.headers['content-type'] ?? '';
      contentTypes.push(type);
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
        response.writeHead(415).end();
        return;
      }
      rawBodies.push(raw);
      spans.push(...decode(JSON.parse(raw)));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    spans,
    rawBodies,
    contentTypes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function decode(body: {
  resourceSpans?: Array<{ resource?: { attributes?: Array<{ key: string; value: AnyValue }> }; scopeSpans?: Array<{ spans?: WireSpan[] }> }>;
}): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind === 2 ? ('server' as const) : span.kind === 3 ? ('client' as const) : ('other' as const),
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        serviceName,
      })),
    );
  });
}

function attributesOf(list: Array<{ key: string; value: AnyValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));
}

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}
