import { sql, type RawBuilder } from 'kysely';
import type { components } from '../../generated/api.js';
import type { GatewayDb } from '../store/database.js';
import { msPerHour } from '../store/roll-up-stored-rows.js';
import type { UsageFilter } from './usage-filter.js';

export type UsageGrouping = 'day' | 'model' | 'key';

/**
 * Totals of one group: one UTC day (`YYYY-MM-DD`), one model (null for requests that never named one) or
 * one key. The contract's `UsageBucket`, so a report is served as it is returned.
 */
export type UsageSummaryRow = components['schemas']['UsageBucket'];

type Sums = Omit<UsageSummaryRow, 'day' | 'model' | 'key_id'>;
const sumColumns = [
  'input_tokens',
  'cached_input_tokens',
  'cache_write_input_tokens',
  'cache_write_1h_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'image_count',
  'cost_usd',
] as const satisfies ReadonlyArray<keyof Sums>;

const hoursPerDay = 24;
const msPerDay = hoursPerDay * msPerHour;

/**
 * Totals per UTC day, model or key, in that order (the requests without a model last), read from the hourly
 * rollups for the whole hours of `[from, to)` and from the rows themselves only for the partial hours at
 * its edges: the same sums as adding up the rows, in milliseconds whatever their number.
 *
 * Rows before `recordsSince` (Unix ms, on an hour; retention deletes them) are gone, so an edge in an hour
 * before it counts whole hours: `from` and `to` are rounded down to their hour there.
 *
 * @example
 * await summarizeUsage(db, { accountId: 'acct_1', from: Date.UTC(2025, 0, 1) }, 'day');
 * // [{ day: '2025-01-01', requests: 12, input_tokens: 3400, …, cost_usd: 0.021 }, …]
 */
export async function summarizeUsage(db: GatewayDb, filter: UsageFilter, groupBy: UsageGrouping, recordsSince?: number): Promise<UsageSummaryRow[]> {
  const { from, to } = filter;
  if (from !== undefined && to !== undefined && from >= to) return [];
  const gone = (time: number) => recordsSince !== undefined && time < recordsSince;
  const hourOf = (time: number) => Math.floor(time / msPerHour);
  const partial = (time: number | undefined): time is number => time !== undefined && time % msPerHour !== 0 && !gone(time);

  // Within one hour there are no whole hours: the rows, or nothing if they are gone.
  if (from !== undefined && to !== undefined && hourOf(from) === hourOf(to - 1) && from % msPerHour !== 0 && to % msPerHour !== 0) {
    return gone(from) ? [] : present(groupBy, await rowTotals(db, filter, groupBy, [[from, to]]));
  }
  const firstHour = from === undefined ? undefined : partial(from) ? hourOf(from) + 1 : hourOf(from);
  const endHour = to === undefined ? undefined : hourOf(to);
  const edges: Array<[number, number]> = [];
  if (partial(from)) edges.push([from, firstHour! * msPerHour]);
  if (partial(to)) edges.push([endHour! * msPerHour, to]);

  const [whole, rows] = await Promise.all([
    rollupTotals(db, filter, groupBy, firstHour, endHour),
    edges.length > 0 ? rowTotals(db, filter, groupBy, edges) : [],
  ]);
  return present(groupBy, [...whole, ...rows]);
}

/** One group's sums as the databases return them: PostgreSQL sums `bigint` as `numeric`, a string. */
type GroupTotals = { group: string | number } & Record<'requests' | (typeof sumColumns)[number], number | string | null>;

function rollupTotals(db: GatewayDb, filter: UsageFilter, groupBy: UsageGrouping, firstHour?: number, endHour?: number): Promise<GroupTotals[]> {
  // Integer division in both databases. The divisor is a literal, not a bound value, so PostgreSQL sees
  // the SELECT and GROUP BY expressions as the same.
  const group: RawBuilder<string | number> = { day: sql<number>`hour / ${sql.lit(hoursPerDay)}`, model: sql<string>`model`, key: sql<string>`key_id` }[groupBy];
  return db
    .selectFrom('usage_rollups')
    .where((eb) =>
      eb.and([
        ...sameOwner(filter),
        ...(firstHour === undefined ? [] : [eb('hour', '>=', firstHour)]),
        ...(endHour === undefined ? [] : [eb('hour', '<', endHour)]),
      ]),
    )
    .select((eb) => [group.as('group'), eb.fn.sum<number | string>('requests').as('requests'), ...sumColumns.map((column) => eb.fn.sum<number | string>(column).as(column))])
    .groupBy(group)
    .execute() as Promise<GroupTotals[]>;
}

function rowTotals(db: GatewayDb, filter: UsageFilter, groupBy: UsageGrouping, ranges: Array<[number, number]>): Promise<GroupTotals[]> {
  // The rollups' groups: rows without a model are those of model '' there.
  const group: RawBuilder<string | number> = { day: sql<number>`created_at / ${sql.lit(msPerDay)}`, model: sql<string>`coalesce(model, '')`, key: sql<string>`key_id` }[groupBy];
  return db
    .selectFrom('usage_records')
    .where((eb) => eb.and([...sameOwner(filter), eb.or(ranges.map(([start, end]) => eb.and([eb('created_at', '>=', start), eb('created_at', '<', end)])))]))
    .select((eb) => [group.as('group'), eb.fn.countAll<number | string>().as('requests'), ...sumColumns.map((column) => eb.fn.sum<number | string>(column).as(column))])
    .groupBy(group)
    .execute() as Promise<GroupTotals[]>;
}

/**
 * The account, key and model conditions, which both tables name alike. `model=` (empty) is the requests
 * without a model, in the rows as in the rollups.
 */
function sameOwner(filter: UsageFilter): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = [];
  if (filter.accountId !== undefined) conditions.push(sql<boolean>`account_id = ${filter.accountId}`);
  if (filter.keyId !== undefined) conditions.push(sql<boolean>`key_id = ${filter.keyId}`);
  if (filter.keyIds !== undefined) {
    conditions.push(filter.keyIds.length === 0 ? sql<boolean>`1 = 0` : sql<boolean>`key_id in (${sql.join(filter.keyIds)})`);
  }
  if (filter.model !== undefined) conditions.push(sql<boolean>`coalesce(model, '') = ${filter.model}`);
  return conditions;
}

/** Adds up the groups both sources returned and orders them as the report shows them. */
function present(groupBy: UsageGrouping, totals: GroupTotals[]): UsageSummaryRow[] {
  const merged = new Map<string | number, Sums>();
  for (const { group, ...sums } of totals) {
    const key = groupBy === 'day' ? Number(group) : String(group);
    const into = merged.get(key) ?? { requests: 0, ...(Object.fromEntries(sumColumns.map((column) => [column, 0])) as Record<(typeof sumColumns)[number], number>) };
    into.requests += Number(sums.requests ?? 0);
    for (const column of sumColumns) into[column] += Number(sums[column] ?? 0);
    merged.set(key, into);
  }
  // Sorted here rather than in SQL: the databases' collations differ.
  const keys = [...merged.keys()].sort((a, b) => (a === b ? 0 : a === '' ? 1 : b === '' ? -1 : a < b ? -1 : 1));
  return keys.map((key) => {
    const sums = merged.get(key)!;
    if (groupBy === 'day') return { day: new Date(Number(key) * msPerDay).toISOString().slice(0, 10), ...sums };
    if (groupBy === 'model') return { model: key === '' ? null : String(key), ...sums };
    return { key_id: String(key), ...sums };
  });
}
