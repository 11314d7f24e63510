import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SyncLedger } from '../sync-ledger.js';
import type { UsageRecord } from '../usage-record.js';
import { commitUsageBeforeEnd } from './commit-usage-before-end.js';

test('the client gets the end of the answer only once its row is committed; the row is built once', async () => {
  let commit!: () => void;
  const committed: UsageRecord[] = [];
  const ledger = {
    commit: (row: UsageRecord) =>
      new Promise<void>((resolve) => {
        commit = () => {
          committed.push(row);
          resolve();
        };
      }),
  } as unknown as SyncLedger;
  let builds = 0;
  const server = createServer((_req, res) => {
    let built = false;
    commitUsageBeforeEnd(res, ledger, (keep) => {
      if (built) return;
      built = true;
      builds += 1;
      keep({ request_id: 'req_1', status: res.statusCode } as UsageRecord);
    });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('data: first\n\n');
    res.end('data: last\n\n');
    res.end(); // a second end while the first waits is not let through early
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    let body = '';
    let done = false;
    const reading = response.text().then((text) => {
      body = text;
      done = true;
    });
    await sleep(100);
    assert.equal(done, false, 'the answer is not complete before the commit');
    assert.deepEqual(committed, []);
    commit();
    await reading;
    assert.equal(body, 'data: first\n\ndata: last\n\n');
    assert.deepEqual(committed, [{ request_id: 'req_1', status: 200 }]);
    assert.equal(builds, 1);
  } finally {
    server.close();
  }
});
