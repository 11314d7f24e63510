import { deref, operations, spec, type Family, type Operation } from './spec-operations.js';

/** The keys a test gateway gave out, and the IDs of things that exist in it, by path parameter name. */
export interface GatewayFacts {
  apiKey: string;
  adminKey: string;
  existing: Record<string, string[]>;
}

interface SecurityScheme {
  type: 'http' | 'apiKey';
  in?: 'header' | 'query';
  name?: string;
}

/** How a scheme presents a secret: a header, or a query parameter. */
export function credentialFor(schemeName: string, secret: string): { headers: Record<string, string>; query: string } {
  const scheme = deref<SecurityScheme>(spec.components.securitySchemes[schemeName]);
  if (scheme.type === 'http') return { headers: { authorization: `Bearer ${secret}` }, query: '' };
  if (scheme.in === 'query') return { headers: {}, query: `${scheme.name}=${encodeURIComponent(secret)}` };
  return { headers: { [scheme.name!.toLowerCase()]: secret }, query: '' };
}

/** The scheme that reads a credential header (`authorization` is the API key's bearer scheme). */
export function schemeForHeader(header: string): string | undefined {
  if (header === 'authorization') return operations.find((operation) => operation.family !== 'admin' && operation.security.length > 0)?.security[0];
  return Object.entries(spec.components.securitySchemes).find(([, scheme]) => deref<SecurityScheme>(scheme).name?.toLowerCase() === header)?.[0];
}

/**
 * The family a scheme gives away on routes several SDKs share (`/v1/models`): that of the first operation
 * that lists it first, e.g. `x-api-key` is Anthropic's.
 */
function familyOfScheme(schemeName: string): Family | undefined {
  return operations.find((operation) => operation.security[0] === schemeName)?.family;
}

/**
 * The family whose error shape an operation answers in when called with this scheme: its own, except on
 * an OpenAI-family operation that lists another family's scheme too (the model routes every SDK calls).
 */
export function familyFor(operation: Operation, schemeName: string | undefined): Family {
  const schemeFamily = schemeName && operation.security.includes(schemeName) ? familyOfScheme(schemeName) : undefined;
  return operation.family === 'openai' && schemeFamily && schemeFamily !== 'admin' ? schemeFamily : operation.family;
}

/** The secret for an operation: the admin key for admin routes, the API key otherwise. */
export const secretFor = (operation: Operation, facts: GatewayFacts) => (operation.family === 'admin' ? facts.adminKey : facts.apiKey);

/** A valid value for each path parameter: something that exists in the gateway, else the spec's example. */
export function pathValue(operation: Operation, name: string, facts: GatewayFacts): string {
  const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
  return facts.existing[name]?.[0] ?? String(parameter?.example ?? 'x');
}

/** The template with `values` (already encoded) in place of its parameters. */
export function fillTemplate(template: string, values: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => values(name));
}

/**
 * A request the operation accepts as far as path and credentials go: the path with valid parameter values,
 * the credentials of its first scheme (none with `null`), and the headers its SDK always sends.
 */
export function validRequest(operation: Operation, facts: GatewayFacts, schemeName: string | null = operation.security[0] ?? null) {
  const path = fillTemplate(operation.template, (name) => encodeURIComponent(pathValue(operation, name, facts)));
  const credential = schemeName ? credentialFor(schemeName, secretFor(operation, facts)) : { headers: {}, query: '' };
  const sdkHeaders: Record<string, string> = operation.family === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {};
  return {
    path: credential.query ? `${path}?${credential.query}` : path,
    headers: { ...sdkHeaders, ...credential.headers },
    family: familyFor(operation, schemeName ?? undefined),
  };
}
