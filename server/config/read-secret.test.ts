import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSecret } from './read-secret.js';

test('NAME, else the content of NAME_FILE with one trailing newline dropped', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'read-secret-')), 'admin');
  await writeFile(file, 'admin-secret\n');
  assert.equal(readSecret({ GATEWAY_ADMIN_KEY_FILE: file }, 'GATEWAY_ADMIN_KEY'), 'admin-secret');
  assert.equal(readSecret({ GATEWAY_ADMIN_KEY: 'plain' }, 'GATEWAY_ADMIN_KEY'), 'plain');
  assert.equal(readSecret({}, 'GATEWAY_ADMIN_KEY'), undefined);
});

test('a file that cannot be read, or NAME and NAME_FILE both set, is an error naming the variable', () => {
  assert.throws(() => readSecret({ OPENAI_API_KEY_FILE: '/nonexistent/key' }, 'OPENAI_API_KEY'), /OPENAI_API_KEY_FILE: cannot read \/nonexistent\/key: ENOENT/);
  assert.throws(() => readSecret({ OPENAI_API_KEY: 'a', OPENAI_API_KEY_FILE: '/nonexistent/key' }, 'OPENAI_API_KEY'), /both OPENAI_API_KEY and OPENAI_API_KEY_FILE/);
});
