// Run by scripts/run-tests.mjs after every other test file, over what their gateways showed (recorded by
// test/helpers/exposure.ts): no admin key, API key or upstream secret in any log line, response header or
// response body of the whole suite. Named *.check.ts so that it is not one of the suite's own files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ExposureRecord } from '../helpers/exposure.js';

const directory = process.env.SECRET_SCAN_DIR;

test('no secret appears in the logs, headers or bodies of any gateway in the suite', { skip: !directory && 'SECRET_SCAN_DIR is not set' }, () => {
  const records = readdirSync(directory!).map((name) => JSON.parse(readFileSync(join(directory!, name), 'utf8')) as ExposureRecord);
  const scanned = records.filter((record) => record.outputs.length > 0);
  // An empty scan proves nothing: the suite's gateways must have been recorded.
  assert.ok(scanned.length > 0, 'no test process recorded any gateway output');
  const leaks: string[] = [];
  let secretCount = 0;
  let outputCount = 0;
  for (const record of scanned) {
    secretCount += record.secrets.length;
    outputCount += record.outputs.length;
    for (const secret of record.secrets) {
      for (const output of record.outputs) {
        if (output.text.includes(secret)) leaks.push(`${record.file}: ${output.where} shows a secret starting ${secret.slice(0, 8)}…`);
      }
    }
  }
  console.log(`# scanned ${outputCount} outputs of ${scanned.length} test processes for ${secretCount} secrets`);
  assert.deepEqual(leaks, []);
});
