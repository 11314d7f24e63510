// Manage API keys without a running server, against the same store the server uses
// (GATEWAY_DATA_DIR, or GATEWAY_DATABASE_URL for PostgreSQL):
//   npm run keys -- create --name demo     prints the new key's secret (shown only once)
//   npm run keys -- list                   lists keys without secrets
//   npm run keys -- revoke <key_id>        revokes a key and every key minted from it
import { parseArgs } from 'node:util';
import { readSettings } from '../config/settings.js';
import { openDatabase } from '../store/database.js';
import { KeyStore } from '../store/key-store.js';
import { migrateToLatest } from '../store/migrations.js';

const usage = 'usage: npm run keys -- create --name <name> [--json] | list [--json] | revoke <key_id>';

async function run(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [command, argument] = positionals;
  const db = await openDatabase(readSettings());
  try {
    await migrateToLatest(db);
    const store = new KeyStore(db);
    switch (command) {
      case 'create': {
        if (!values.name) throw new UsageError('create needs --name <name>');
        const { record, secret } = await store.create({ name: values.name });
        if (values.json) console.log(JSON.stringify({ ...record, key: secret }));
        else console.log(`${secret}\n(created ${record.id} "${record.name}"; the secret is not shown again)`);
        return 0;
      }
      case 'list': {
        const keys = await store.list();
        if (values.json) console.log(JSON.stringify(keys));
        else for (const key of keys) console.log(`${key.id}\t${key.prefix}…\t${key.revoked_at ? 'revoked' : 'active'}\t${key.name}`);
        return 0;
      }
      case 'revoke': {
        if (!argument) throw new UsageError('revoke needs a key id');
        const record = await store.revoke(argument);
        if (!record) {
          console.error(`no key with id ${argument}`);
          return 1;
        }
        console.log(`revoked ${record.id} "${record.name}" and every key minted from it`);
        return 0;
      }
      default:
        throw new UsageError(command ? `unknown command '${command}'` : 'missing command');
    }
  } finally {
    await db.destroy();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n${usage}` : (error as Error).message);
    process.exit(2);
  },
);
