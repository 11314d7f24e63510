import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineSplitter, LineTooLong, readLines } from './split-lines.js';

test('lines across chunks, CRLF and a last line without its end', () => {
  const splitter = new LineSplitter(100);
  const lines = [...splitter.push(Buffer.from('ab')), ...splitter.push(Buffer.from('c\r\nd\n\ne')), splitter.end()!];
  assert.deepEqual(lines.map((line) => [line.number, line.bytes.toString()]), [[1, 'abc'], [2, 'd'], [3, ''], [4, 'e']]);
  assert.equal(new LineSplitter(10).end(), undefined);
});

test('a line over the bound throws, naming it, before it is held whole', () => {
  const splitter = new LineSplitter(4);
  splitter.push(Buffer.from('ok\n'));
  assert.throws(() => splitter.push(Buffer.from('toolong')), (error: unknown) => error instanceof LineTooLong && error.lineNumber === 2);
});

test('readLines numbers text lines and refuses bytes that are not UTF-8', async () => {
  async function* chunks() {
    yield 'a\nb';
    yield Buffer.from('\nc');
  }
  const read: Array<{ number: number; text: string }> = [];
  for await (const line of readLines(chunks(), 100)) read.push(line);
  assert.deepEqual(read, [{ number: 1, text: 'a' }, { number: 2, text: 'b' }, { number: 3, text: 'c' }]);
  await assert.rejects(async () => {
    for await (const _ of readLines([Buffer.from([0xff, 0x0a])], 100)) void _;
  }, /Line 1 is not UTF-8/);
});
