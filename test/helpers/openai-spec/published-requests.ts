// Requests that OpenAI's published spec (test/fixtures/openai-spec/) calls valid, for the operations the
// gateway shares with it: the oracle of test/accepts-published-requests.test.ts, which requires the gateway
// to take every one. json-schema-faker makes each body and parameter from the published schema (read as
// JSON Schema 2020-12 by as-json-schema-2020.ts: `nullable`, `$ref`, `oneOf`/`anyOf`/`allOf`, enums,
// `additionalProperties` as published), seeded by fast-check, and a body is kept only when the published
// spec's own validator accepts it (json-schema-faker reads OpenAI's ambiguous `oneOf`s loosely now and then).
import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { operationRoutes, type OperationRoute } from '../../../generated/operations.js';
import { asJsonSchema2020 } from './as-json-schema-2020.js';
import { publishedSpec, type PublishedOperation, type PublishedParameter } from './published-spec.js';
import { publishedValidator } from './published-validator.js';
import { refusedOnPurpose } from './refused-on-purpose.js';

type Schema = Record<string, unknown>;

/** An operation of ours that OpenAI's document has too: same method, same path (our `/v1` is its server URL). */
export interface SharedOperation {
  route: OperationRoute;
  /** The path as OpenAI's document writes it (`/responses/{response_id}`). */
  publishedPath: string;
  published: PublishedOperation;
}

/** A request as the published spec describes it: path parameters, query parameters and body. */
export interface PublishedRequest {
  pathParams: Record<string, string>;
  /** In order; an array parameter is one entry per item. */
  query: Array<[string, string]>;
  /** No body, a JSON value, or the fields of a `multipart/form-data` form (`binary` fields hold file names). */
  body?: { mediaType: 'application/json'; value: Record<string, unknown> } | { mediaType: 'multipart/form-data'; value: Record<string, unknown>; files: string[] };
  /** The published schema the body was made from and checked against. */
  bodySchema?: string;
}

const templateOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Every operation of ours whose method and path OpenAI's document has, matched by template (parameter names aside). */
export function sharedOperations(): SharedOperation[] {
  const { paths } = publishedSpec();
  const shared: SharedOperation[] = [];
  for (const route of operationRoutes) {
    if (!route.path.startsWith('/v1/')) continue;
    const ours = templateOf(route.path.slice('/v1'.length));
    for (const [publishedPath, item] of Object.entries(paths)) {
      const published = item[route.method];
      if (published && templateOf(publishedPath) === ours) shared.push({ route, publishedPath, published });
    }
  }
  return shared;
}

/**
 * Limits OpenAI's document states in a parameter's description but not in its schema. Honoured (the
 * generator only ever narrows), so that no request is called valid that OpenAI's own words say it refuses.
 */
const statedInProse: Record<string, Record<string, Schema>> = {
  // "A limit on the number of objects to be returned. Limit can range between 1 and 100, and the default is 20."
  'get /responses/{response_id}/input_items': { limit: { minimum: 1, maximum: 100 } },
  // The same words on the conversation's items.
  'get /conversations/{conversation_id}/items': { limit: { minimum: 1, maximum: 100 } },
  // "Limit can range between 1 and 10,000, and the default is 10,000."
  'get /files': { limit: { minimum: 1, maximum: 10000 } },
};

/**
 * Sizes capped so that one value stays small: a string of OpenAI's (`maxLength: 10485760` on some) or an
 * array is made no longer than these. Only narrows, so every value made is still valid as published.
 */
const longestString = 64;
const longestArray = 4;

function capped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(capped);
  if (node === null || typeof node !== 'object') return node;
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(node as Schema)) {
    // json-schema-faker makes a `oneOf` branch with no optional property at all (so that the value is less
    // likely to match a second branch): messages, content parts, tools and items would all be bare. Made as
    // `anyOf`, they get optional properties too; a value that matches two branches is dropped by the
    // published validator, which reads the `oneOf` as published.
    const name = keyword === 'oneOf' && !Array.isArray(node) ? 'anyOf' : keyword;
    copy[name] = keyword === 'enum' || keyword === 'const' || keyword === 'default' || keyword === 'example' || keyword === 'examples' ? value : capped(value);
  }
  if (typeof copy.maxLength === 'number' && copy.maxLength > longestString) copy.maxLength = Math.max(longestString, Number(copy.minLength ?? 0));
  if (typeof copy.maxItems === 'number' && copy.maxItems > longestArray) copy.maxItems = Math.max(longestArray, Number(copy.minItems ?? 0));
  return copy;
}

/**
 * Clients send back objects they were given, with every field of the object's type, unset ones as `null`:
 * the Agents SDK returns an assistant's text part as `{type: 'text', text, refusal: null, ...}`. A schema
 * that does not forbid other properties accepts that, and so does OpenAI. So each object branch of a union
 * (a content part, an item, a tool) may also carry the properties of its sibling branches, as `null`.
 * Changes `schemas` in place.
 */
function withSiblingFieldsAsNull(schemas: Record<string, Schema>): Record<string, Schema> {
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref;
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? resolve(schemas[ref.slice('#/components/schemas/'.length)] ?? {}) : schema;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = Array.isArray(node[keyword]) ? (node[keyword] as Schema[]).map(resolve).filter((branch) => isObject(branch.properties)) : [];
      if (branches.length < 2) continue;
      const names = new Set(branches.flatMap((branch) => Object.keys(branch.properties as Schema)));
      for (const branch of branches) {
        if (branch.additionalProperties === false || branch.unevaluatedProperties === false) continue;
        const properties = branch.properties as Schema;
        for (const name of names) if (!(name in properties)) properties[name] = { type: 'null' };
      }
    }
    for (const [keyword, value] of Object.entries(node)) if (keyword !== 'enum' && keyword !== 'const' && keyword !== 'properties') visit(value);
    if (isObject(node.properties)) Object.values(node.properties).forEach(visit);
  };
  visit(schemas);
  return schemas;
}

/** The published schemas kept inside what the gateway refuses on purpose (refused-on-purpose.ts); changes `schemas` in place. */
function withoutRefusedOnPurpose(schemas: Record<string, Schema>): Record<string, Schema> {
  for (const entry of refusedOnPurpose) {
    const steps = entry.schema.replace(/^\/components\/schemas\//, '').split('/');
    let schema: unknown = schemas;
    for (const step of steps) schema = isObject(schema) || Array.isArray(schema) ? (schema as Record<string, unknown>)[step] : undefined;
    if (!isObject(schema)) throw new Error(`refused-on-purpose entry ${entry.schema}: no such schema in OpenAI's document`);
    Object.assign(schema, entry.narrowTo);
  }
  return schemas;
}

let schemas: Record<string, Schema> | undefined;
/** `components.schemas` read as 2020-12, kept inside what the gateway refuses on purpose, sizes capped, sibling fields as null. */
const generatorSchemas = () =>
  (schemas ??= withSiblingFieldsAsNull(capped(withoutRefusedOnPurpose(asJsonSchema2020(publishedSpec().components.schemas))) as Record<string, Schema>));

/** One value of `schema` (which may `$ref` the document's components), the same for the same seed and options. */
function generate(schema: Schema, seed: number, optionalsProbability: number): unknown {
  const root = { ...(capped(asJsonSchema2020({ root: schema }).root) as Schema), components: { schemas: generatorSchemas() } };
  return generateSync(root as never, {
    seed,
    optionalsProbability,
    // Deep enough for every nesting OpenAI's request schemas have (messages → content parts → ...); json-schema-faker
    // answers `{}` for a `$ref` past the depth, which the published validator then refuses.
    maxDepth: 12,
    refDepthMax: 12,
    maxDefaultItems: 3,
    // Fake values, not the schema's `default`s and examples: more shapes.
    useDefaultValue: false,
    useExamplesValue: false,
  } as never);
}

const refName = (ref: string | undefined) => ref?.replace('#/components/schemas/', '');

/** The parameters of an operation, each `$ref` resolved, with the limits stated in prose. */
function parametersOf(operation: SharedOperation): PublishedParameter[] {
  const { components } = publishedSpec();
  const prose = statedInProse[`${operation.route.method} ${operation.publishedPath}`] ?? {};
  return (operation.published.parameters ?? []).map((parameter) => {
    const resolved = '$ref' in parameter ? components.parameters![parameter.$ref.replace('#/components/parameters/', '')]! : parameter;
    return prose[resolved.name] ? { ...resolved, schema: { ...resolved.schema, ...prose[resolved.name] } } : resolved;
  });
}

/** The body media types of OpenAI's operation that a test sends; the others are named in `unsent`. */
export type SentMediaType = 'application/json' | 'multipart/form-data';

/**
 * Requests of `operation` that OpenAI's published spec calls valid, with a body of `mediaType` (when the
 * operation takes one). The same fast-check seed makes the same requests.
 */
export function publishedRequests(operation: SharedOperation, mediaType?: SentMediaType): fc.Arbitrary<PublishedRequest> {
  const parameters = parametersOf(operation);
  const bodySchema = mediaType && refName(operation.published.requestBody?.content?.[mediaType]?.schema?.$ref);
  if (mediaType && !bodySchema) throw new Error(`${operation.route.operationId}: OpenAI's document has no ${mediaType} body schema`);
  return fc
    .record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      // How many optional fields a value has: few, half, or nearly all.
      optionalsProbability: fc.constantFrom(0.1, 0.5, 0.9),
      // A query array as the OpenAPI default writes it (`include=a&include=b`) or as OpenAI's SDKs do (`include[]=a`).
      brackets: fc.boolean(),
    })
    .map(({ seed, optionalsProbability, brackets }) => {
      const request: PublishedRequest = { pathParams: {}, query: [] };
      parameters.forEach((parameter, index) => {
        const present = parameter.required || (seed + index) % 2 === 0;
        if (!present || !parameter.schema) return;
        const value = generate(parameter.schema, seed + index + 1, optionalsProbability);
        if (value === null || value === undefined) return;
        if (parameter.in === 'path') request.pathParams[parameter.name] = String(value);
        if (parameter.in === 'query') {
          const items = Array.isArray(value) ? value : [value];
          for (const item of items) request.query.push([Array.isArray(value) && brackets ? `${parameter.name}[]` : parameter.name, String(item)]);
        }
      });
      if (bodySchema) {
        const value = generate({ $ref: `#/components/schemas/${bodySchema}` }, seed, optionalsProbability) as Record<string, unknown>;
        request.bodySchema = bodySchema;
        request.body = mediaType === 'multipart/form-data' ? { mediaType, value, files: binaryFields(bodySchema) } : { mediaType: 'application/json', value };
      }
      return request;
    })
    .filter((request) => !request.bodySchema || publishedValidator().violations(request.bodySchema, request.body!.value).length === 0);
}

/** The properties of a multipart schema that are files (`format: binary`, alone or as array items). */
function binaryFields(schemaName: string): string[] {
  const properties = (publishedSpec().components.schemas[schemaName]?.properties ?? {}) as Record<string, Schema>;
  const isBinary = (schema: Schema): boolean =>
    schema.format === 'binary' || [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])].some(isBinary) || (isObject(schema.items) && isBinary(schema.items));
  return Object.entries(properties)
    .filter(([, schema]) => isBinary(schema))
    .map(([name]) => name);
}

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
