import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginateItems, readPageQuery } from './paginate-items.js';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
const ids = (page: { data: Array<{ id: string }> }) => page.data.map((item) => item.id);

test('newest first by default, with cursors that walk the pages', () => {
  const first = paginateItems(items, readPageQuery({ limit: '2' }));
  assert.deepEqual(ids(first), ['e', 'd']);
  assert.deepEqual([first.first_id, first.last_id, first.has_more], ['e', 'd', true]);
  const second = paginateItems(items, readPageQuery({ limit: '2', after: first.last_id }));
  assert.deepEqual(ids(second), ['c', 'b']);
  const last = paginateItems(items, readPageQuery({ limit: '2', after: second.last_id }));
  assert.deepEqual([ids(last), last.has_more], [['a'], false]);
});

test('asc order, before, and an empty page', () => {
  assert.deepEqual(ids(paginateItems(items, readPageQuery({ order: 'asc', before: 'c' }))), ['a', 'b']);
  const empty = paginateItems([], readPageQuery({}));
  assert.deepEqual([empty.data, empty.first_id, empty.last_id, empty.has_more], [[], null, null, false]);
});

test('bad limits, orders and unknown cursors are 400s naming the parameter', () => {
  assert.throws(() => readPageQuery({ limit: '0' }), { param: 'limit' });
  assert.throws(() => readPageQuery({ order: 'up' }), { param: 'order' });
  assert.throws(() => paginateItems(items, readPageQuery({ after: 'zz' })), { param: 'after' });
});
