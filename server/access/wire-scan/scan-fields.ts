import type { ModelCapability } from '../../config/config-schema.js';
import type { OutputTokenAsk, Walker, WireScan } from './wire-scan.js';

/**
 * The shared vocabulary of the wire scanners: each protocol describes its objects as tables of rules, and
 * these functions walk a body by them. Nothing here throws, whatever the body holds.
 */

/**
 * What a field means: `none` carries no capability; a capability is asked for whenever the field is set
 * (whatever its value, so a malformed one is still gated); `unknown` is a known field that no capability
 * covers, refused for narrowed keys; a walker reads what is inside.
 */
export type FieldRule = 'none' | 'unknown' | ModelCapability | Walker;
export type FieldTable = Readonly<Record<string, FieldRule>>;

/**
 * What a `type` value of a tool, block or item means: as for a field, or a list of capabilities, or a
 * walker given the whole object.
 */
export type TypeRule = 'none' | ModelCapability | readonly ModelCapability[] | Walker;
export type TypeTable = Readonly<Record<string, TypeRule>>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON APIs read a null field as an absent one, so null asks for nothing and is never unknown. */
export function isSet(value: unknown): boolean {
  return value !== null && value !== undefined;
}

export const fieldParam = (param: string, key: string): string => (param ? `${param}.${key}` : key);
export const itemParam = (param: string, index: number): string => `${param}[${index}]`;

/** A table lookup that a key such as `constructor` or `__proto__` cannot satisfy from the prototype. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

export function useCapability(scan: WireScan, capability: ModelCapability, param: string): void {
  scan.uses.push({ capability, param });
}

/**
 * Every set field of an object by the table; a field the table lacks is unknown. `canonical` maps a key
 * to the table's spelling (Gemini's snake_case twins), while params keep the client's spelling.
 */
export function scanFields(value: unknown, param: string, table: FieldTable, scan: WireScan, canonical: (key: string) => string = (key) => key): void {
  if (!isRecord(value)) return;
  for (const [key, field] of Object.entries(value)) {
    if (isSet(field)) applyFieldRule(lookup(table, canonical(key)), field, fieldParam(param, key), scan);
  }
}

function applyFieldRule(rule: FieldRule | undefined, value: unknown, param: string, scan: WireScan): void {
  if (rule === undefined || rule === 'unknown') scan.unknown.push(param);
  else if (typeof rule === 'function') rule(value, param, scan);
  // An empty list (`tools: []`) offers nothing; SDKs send them.
  else if (rule !== 'none' && !(Array.isArray(value) && value.length === 0)) useCapability(scan, rule, param);
}

/** A walker for a list: each element by `walker`; anything but a list carries nothing. */
export function eachItem(walker: Walker): Walker {
  return (value, param, scan) => {
    if (Array.isArray(value)) value.forEach((item, index) => walker(item, itemParam(param, index), scan));
  };
}

/** A walker for a list of objects whose fields are all described by `table`. */
export const eachObject = (table: FieldTable, canonical?: (key: string) => string): Walker =>
  eachItem((item, param, scan) => scanFields(item, param, table, scan, canonical));

export interface TypeScanOptions {
  /** How to read the type, where it is not just `type`: implied when absent, or without a version date. */
  typeOf?: (record: Record<string, unknown>) => unknown;
  /** Where a capability is reported: the object itself (content blocks), or its `type` field (tools). */
  reportAtType?: boolean;
}

/**
 * One member of a discriminated union, by its `type`. An unknown or missing type is unknown at
 * `<param>.type`; a value that is not an object carries nothing.
 */
export function scanByType(value: unknown, param: string, table: TypeTable, scan: WireScan, options: TypeScanOptions = {}): void {
  if (!isRecord(value)) return;
  const rule = lookup(table, typeOf(value, options));
  const typeParam = fieldParam(param, 'type');
  if (rule === undefined) {
    scan.unknown.push(typeParam);
    return;
  }
  const reportAt = options.reportAtType && isSet(value.type) ? typeParam : param;
  if (typeof rule === 'function') rule(value, param, scan);
  else if (rule !== 'none') for (const capability of typeof rule === 'string' ? [rule] : rule) useCapability(scan, capability, reportAt);
}

function typeOf(record: Record<string, unknown>, options: TypeScanOptions): unknown {
  return options.typeOf ? options.typeOf(record) : record.type;
}

/** A walker for a list of union members. */
export const eachOfType = (table: TypeTable, options?: TypeScanOptions): Walker => eachItem((item, param, scan) => scanByType(item, param, table, scan, options));

/**
 * A tool list: every tool, of whatever kind, asks for `tools`; an unknown kind is unknown as well. A value
 * that is not a list still asks for `tools`, since the upstream may read it some way.
 */
export function scanToolList(value: unknown, param: string, table: TypeTable, scan: WireScan, options: TypeScanOptions = {}): void {
  if (!Array.isArray(value)) {
    useCapability(scan, 'tools', param);
    return;
  }
  value.forEach((tool, index) => {
    const toolParam = itemParam(param, index);
    if (!isRecord(tool)) useCapability(scan, 'tools', toolParam);
    else if (lookup(table, typeOf(tool, options)) === undefined) useCapability(scan, 'tools', isSet(tool.type) ? fieldParam(toolParam, 'type') : toolParam);
    scanByType(tool, toolParam, table, scan, { ...options, reportAtType: true });
  });
}

/**
 * A tool choice (or Gemini's calling mode): `auto`, `none` and their kin choose nothing, so they carry no
 * capability; anything else forces or restricts tools and asks for `tools`. Read from a string, a number
 * (proto enums) or an object's `type`, compared without case.
 */
export function toolChoice(harmless: readonly string[]): Walker {
  return (value, param, scan) => {
    const choice = isRecord(value) ? value.type : value;
    const known = (typeof choice === 'string' || typeof choice === 'number') && harmless.includes(String(choice).toLowerCase());
    if (!known) useCapability(scan, 'tools', param);
  };
}

/**
 * `service_tier` (Chat, Responses, Messages): the default tiers are priced as usual; any other (OpenAI's
 * `priority`, `flex`, `scale`) changes the price, so it is a cost option.
 */
export const serviceTier: Walker = (value, param, scan) => {
  if (value !== null && value !== undefined && !(typeof value === 'string' && ['auto', 'default', 'standard_only'].includes(value))) {
    scan.costOptions.push({ option: 'service_tier', param });
  }
};

/** A number that asks for output tokens; anything else asks for none. */
export function outputTokens(kind: OutputTokenAsk['kind']): Walker {
  return (value, param, scan) => {
    if (typeof value === 'number') scan.outputTokens.push({ param, value, kind });
  };
}
