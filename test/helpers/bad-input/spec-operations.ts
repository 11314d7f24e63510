import { readFileSync } from 'node:fs';

/** The contract as one document: the bundle of openapi/ that `npm run generate` writes. */
export const spec = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8')) as Spec;

export type Family = 'openai' | 'anthropic' | 'gemini' | 'admin';
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
  example?: unknown;
}

/** One operation of the spec, with everything a bad-input test needs to aim at it. */
export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/v1beta/models/{model}:generateContent`. */
  template: string;
  /** The spec's `x-protocol`: which error shape the operation answers in. */
  family: Family;
  /** Security scheme names that may authenticate it, in the spec's order; empty for public operations. */
  security: string[];
  parameters: Parameter[];
  /** The `application/json` body: its schema and valid example values (from the spec's examples). */
  json?: { schema: Schema; examples: Json[] };
  /** The `multipart/form-data` body schema. */
  multipart?: { schema: Schema };
  /** The schema of each declared response status (`400`, `4XX`, `default`, ...), when it has a JSON body. */
  responses: Record<string, Schema | undefined>;
}

/** A node of the parsed YAML: read field by field, as the spec's shape is checked by redocly, not here. */
type SpecNode = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Spec {
  paths: Record<string, Record<string, SpecNode>>;
  components: Record<string, Record<string, SpecNode>>;
  security?: Array<Record<string, string[]>>;
}

/** Follows `$ref`s inside this spec (`#/components/...`) until a real object. */
export function deref<T = SpecNode>(node: unknown): T {
  let current = node as { $ref?: string } | undefined;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<SpecNode>((parent, key) => parent?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], spec);
  }
  return current as T;
}

const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Every operation of the spec, in the spec's order. */
export const operations: Operation[] = Object.entries(spec.paths).flatMap(([template, item]) =>
  methods.filter((method) => item[method]).map((method) => describeOperation(template, method, item)),
);

function describeOperation(template: string, method: string, item: Record<string, SpecNode>): Operation {
  const operation = item[method];
  const byKey = new Map<string, Parameter>();
  for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref<Parameter>(p))) {
    byKey.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  const body = operation.requestBody ? deref(operation.requestBody) : undefined;
  const jsonMedia = body?.content?.['application/json'];
  const multipartMedia = body?.content?.['multipart/form-data'];
  const security = (operation.security ?? spec.security ?? []).flatMap((option: Record<string, string[]>) => Object.keys(option));
  const responses: Record<string, Schema | undefined> = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    responses[status] = deref(response)?.content?.['application/json']?.schema;
  }
  return {
    operationId: operation.operationId,
    method: method.toUpperCase(),
    template,
    family: operation['x-protocol'],
    security,
    parameters: [...byKey.values()],
    json: jsonMedia && {
      schema: jsonMedia.schema,
      examples: Object.values(jsonMedia.examples ?? {}).map((example) => deref<{ value: Json }>(example).value),
    },
    multipart: multipartMedia && { schema: multipartMedia.schema },
    responses,
  };
}

/** The schema the spec gives an error answer of this status, from the most specific declaration. */
export function errorSchemaFor(operation: Operation | undefined, status: number): Schema | undefined {
  if (!operation) return undefined;
  const { responses } = operation;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}
