import type { OperationRoute, PathSegment, ProtocolFamily } from '../../../generated/operations.js';

/** An operation a request reached, with its path parameters percent-decoded. */
export interface OperationMatch {
  route: OperationRoute;
  pathParams: Record<string, string>;
}

/**
 * The one rule by which a request target reaches an operation of the spec (README, "Paths"):
 * - the query (from the first `?`) is not part of the path; an absolute-form target (`http://host/p`) is
 *   read as its path;
 * - the path is split at `/` and empty segments are ignored, so `//` and a trailing `/` change nothing;
 * - literal segments match byte for byte: case-sensitive and never percent-decoded (`/V1/…`, `/Admin/…`,
 *   `/v1/%63hat/…` and `:GenerateContent` match nothing);
 * - parameters are percent-decoded once (a malformed escape stays as sent); `%2F` in a parameter is a `/`
 *   of its value, and a parameter the spec marks `x-allow-slashes` (model IDs) takes every segment up to
 *   its template's literal suffix;
 * - HEAD is GET without a body.
 * A target that matches no operation for its method is a 404 in the family's shape (see familyOfUnmatched).
 * When several templates match, the one with more literal segments wins, then the one with a literal
 * suffix (`{model}:generateContent` over `{model}`).
 */
export class OperationTable {
  /** Templates without parameters, by `METHOD /canonical/path`: the common case, one Map lookup. */
  private readonly literal = new Map<string, OperationRoute>();
  /** Templates with parameters, by method, most specific first. */
  private readonly templated = new Map<string, OperationRoute[]>();

  /** Every route, most specific first, for the guess at an unmatched target's family. */
  private readonly routes: readonly OperationRoute[];

  constructor(routes: readonly OperationRoute[]) {
    this.routes = [...routes].sort((a, b) => specificity(b) - specificity(a));
    for (const route of this.routes) {
      const method = route.method.toUpperCase();
      if (route.segments.every((segment) => 'literal' in segment)) this.literal.set(`${method} ${route.path}`, route);
      else this.templated.set(method, [...(this.templated.get(method) ?? []), route]);
    }
  }

  match(method: string, target: string): OperationMatch | undefined {
    const lookupMethod = method === 'HEAD' ? 'GET' : method;
    const path = pathOf(target);
    if (path === undefined) return undefined;
    const exact = this.literal.get(`${lookupMethod} ${path}`);
    if (exact) return { route: exact, pathParams: {} };
    const segments = splitSegments(path);
    const canonical = `${lookupMethod} /${segments.join('/')}`;
    const literal = this.literal.get(canonical);
    if (literal) return { route: literal, pathParams: {} };
    for (const route of this.templated.get(lookupMethod) ?? []) {
      const pathParams = matchSegments(route.segments, segments);
      if (pathParams) return { route, pathParams };
    }
    return undefined;
  }

  /**
   * The family whose error shape a target that matched nothing gets: that of the operation it would reach
   * ignoring case and method (`/V1/Messages` is Anthropic's, `/v1beta/models/m:GenerateContent` Gemini's),
   * else that of every operation under its longest shared prefix (`/admin/…`, `/v1beta/…`), else OpenAI's.
   */
  familyOfUnmatched(target: string): { family: ProtocolFamily; route?: OperationRoute } {
    const segments = splitSegments(pathOf(target) ?? '/').map((segment) => decodeLeniently(segment).toLowerCase());
    const folded = this.routes.find((route) => matchSegments(route.segments, segments, true) !== undefined);
    if (folded) return { family: folded.protocol, route: folded };
    for (let length = segments.length; length > 0; length--) {
      const prefix = segments.slice(0, length);
      const families = new Set(
        this.routes
          .filter((route) => prefix.every((segment, index) => literalAt(route.segments, index)?.toLowerCase() === segment))
          .map((route) => route.protocol),
      );
      if (families.size === 1) return { family: [...families][0]! };
    }
    return { family: 'openai' };
  }
}

/** The path of a request target, or undefined for a target that has none (`*`, no leading `/`). */
function pathOf(target: string): string | undefined {
  const queryAt = target.indexOf('?');
  let path = queryAt === -1 ? target : target.slice(0, queryAt);
  const absolute = /^https?:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  return path.startsWith('/') ? path : undefined;
}

function splitSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(template: readonly PathSegment[], segments: readonly string[], fold = false): Record<string, string> | undefined {
  const same = fold ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  const pathParams: Record<string, string> = {};
  for (let index = 0; index < template.length; index++) {
    const part = template[index]!;
    if (index >= segments.length) return undefined;
    if ('literal' in part) {
      if (!same(part.literal, segments[index]!)) return undefined;
      continue;
    }
    // A parameter allowing slashes is the template's last part (the generator checks) and takes the rest.
    // Guessing an unmatched target's family (fold), an empty parameter still says whose path it was:
    // `/v1/:generateContent` is a Gemini call without its model.
    const value = parameterValue(part.slashes ? segments.slice(index).join('/') : segments[index]!, part.suffix, same, fold);
    if (value === undefined) return undefined;
    pathParams[part.param] = value;
    if (part.slashes) return pathParams;
  }
  return segments.length === template.length ? pathParams : undefined;
}

/**
 * The decoded value before the parameter's literal suffix; undefined when the suffix is not there or leaves
 * nothing (unless `allowEmpty`).
 */
function parameterValue(raw: string, suffix: string, same: (a: string, b: string) => boolean, allowEmpty: boolean): string | undefined {
  if (raw.length < suffix.length || (raw.length === suffix.length && !allowEmpty) || !same(raw.slice(raw.length - suffix.length), suffix)) return undefined;
  return decodeLeniently(raw.slice(0, raw.length - suffix.length));
}

function literalAt(template: readonly PathSegment[], index: number): string | undefined {
  const part = template[index];
  return part && 'literal' in part ? part.literal : undefined;
}

/** Percent-decoding in which a malformed escape (`%zz`) stays as it was sent, as no ID has one. */
function decodeLeniently(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** More literal segments first; then a literal suffix after the parameter (`{model}:generateContent`). */
function specificity(route: OperationRoute): number {
  return route.segments.reduce((score, segment) => score + ('literal' in segment ? 1000 : segment.suffix.length > 0 ? 10 : 0), 0);
}
