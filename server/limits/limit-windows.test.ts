import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minuteWindow, msUntilNextMinute, msUntilNextUtcDay, msUntilNextUtcMonth, utcDay, utcMonth, wholeSecondsAtLeastOne } from './limit-windows.js';

test('windows are fixed UTC minutes, days and months', () => {
  const newYearsEve = Date.UTC(2029, 11, 31, 23, 59, 30);
  assert.equal(minuteWindow(newYearsEve + 29_999), minuteWindow(newYearsEve));
  assert.equal(minuteWindow(newYearsEve + 30_000), minuteWindow(newYearsEve) + 1);
  assert.equal(utcDay(newYearsEve), '20291231');
  assert.equal(utcMonth(newYearsEve), '202912');
  assert.equal(utcDay(newYearsEve + 30_000), '20300101');
  assert.equal(msUntilNextMinute(newYearsEve), 30_000);
  assert.equal(msUntilNextUtcDay(newYearsEve), 30_000);
  assert.equal(msUntilNextUtcMonth(newYearsEve), 30_000, 'December rolls over into January');
  assert.equal(msUntilNextUtcMonth(Date.UTC(2028, 1, 1)), 29 * 86_400_000, 'leap February');
});

test('Retry-After is whole seconds and never 0', () => {
  assert.equal(wholeSecondsAtLeastOne(0), 1);
  assert.equal(wholeSecondsAtLeastOne(1), 1);
  assert.equal(wholeSecondsAtLeastOne(1001), 2);
});
