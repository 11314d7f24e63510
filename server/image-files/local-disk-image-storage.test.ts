import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { newImageFileName, parseImageFileName } from './image-file-name.js';
import { LocalDiskImageStorage } from './local-disk-image-storage.js';

describe('image file names', () => {
  test('carry their expiry and format, and 128 random bits', () => {
    const expiresAt = Date.UTC(2026, 10, 21, 12);
    const name = newImageFileName('webp', expiresAt);
    assert.match(name, /^img_[0-9a-z]+_[0-9a-f]{32}\.webp$/);
    assert.deepEqual(parseImageFileName(name), { expiresAt, format: 'webp' });
    assert.notEqual(newImageFileName('webp', expiresAt), name);
  });

  test('anything else parses as nothing', () => {
    for (const name of ['img_abc.png', '../img_1_00000000000000000000000000000000.png', 'img_1_00000000000000000000000000000000.gif', 'img_1_0000000000000000000000000000000G.png', '']) {
      assert.equal(parseImageFileName(name), undefined, name);
    }
  });
});

describe('LocalDiskImageStorage', () => {
  let directory: string;
  let storage: LocalDiskImageStorage;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'image-storage-'));
    storage = new LocalDiskImageStorage(join(directory, 'images'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('saves, opens until the expiry, then deletes on the first read after it', async () => {
    const now = Date.now();
    const name = await storage.save(Buffer.from('png bytes'), 'png', now + 1_000);
    const opened = await storage.open(name, now);
    assert.ok(opened);
    assert.equal(opened.bytes, 9);
    assert.equal(await text(opened.body), 'png bytes');
    assert.equal(await storage.open(name, now + 1_000), undefined);
    assert.deepEqual(await readdir(storage.directory), []);
  });

  test('deleteExpired removes only expired images, and never files it did not name', async () => {
    const now = Date.now();
    const expired = await storage.save(Buffer.from('a'), 'png', now - 1);
    const live = await storage.save(Buffer.from('b'), 'jpeg', now + 60_000);
    await writeFile(join(storage.directory, 'notes.txt'), 'not ours');
    assert.equal(await storage.deleteExpired(now), 1);
    assert.deepEqual((await readdir(storage.directory)).sort(), [live, 'notes.txt'].sort());
    assert.equal(await storage.open(expired, now), undefined);
  });

  test('unknown and malformed names open as nothing', async () => {
    assert.equal(await storage.open(newImageFileName('png', Date.now() + 60_000)), undefined);
    assert.equal(await storage.open('../../etc/passwd'), undefined);
  });

  test('deleteExpired on a directory that does not exist yet is a no-op', async () => {
    assert.equal(await new LocalDiskImageStorage(join(directory, 'missing')).deleteExpired(), 0);
  });
});
