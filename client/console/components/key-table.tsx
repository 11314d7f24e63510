import { useMemo } from 'preact/hooks';
import type { components } from '../../index.js';
import { formatSeconds } from '../format.js';
import { TableScroll } from './table-scroll.js';

type Key = components['schemas']['Key'];

interface KeyTableProps {
  keys: Key[];
  currentKeyId?: string;
  accountNames?: Map<string, string>;
  onRename(key: Key): void;
  onRevoke(key: Key): void;
}

/** Keys with their status; active ones get Rename and Revoke buttons named after the key. */
export function KeyTable({ keys, currentKeyId, accountNames, onRename, onRevoke }: KeyTableProps) {
  const activeCount = useMemo(() => keys.filter((key) => key.revoked_at === null).length, [keys]);
  return (
    <TableScroll label="Keys">
      <table class="table">
        <caption>
          {keys.length} {keys.length === 1 ? 'key' : 'keys'}, {activeCount} active
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {accountNames && <th scope="col">Account</th>}
            <th scope="col">Prefix</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">ID</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} class={key.revoked_at === null ? undefined : 'row-muted'}>
              <th scope="row">
                {key.name}
                {key.id === currentKeyId && <span class="tag">this key</span>}
              </th>
              {accountNames && <td>{accountNames.get(key.account_id) ?? key.account_id}</td>}
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td class="nowrap">{formatSeconds(key.created_at)}</td>
              <td class="nowrap">
                {key.revoked_at === null ? (
                  <span class="status status-ok">Active</span>
                ) : (
                  <>
                    <span class="status status-off">Revoked</span>
                    <span class="sub block">{formatSeconds(key.revoked_at)}</span>
                  </>
                )}
              </td>
              <td>
                <code>{key.id}</code>
              </td>
              <td class="actions">
                {key.revoked_at === null && (
                  <>
                    <button type="button" class="button button-small" aria-label={`Rename key ${key.name}`} onClick={() => onRename(key)}>
                      Rename
                    </button>
                    <button type="button" class="button button-small button-danger-outline" aria-label={`Revoke key ${key.name}`} onClick={() => onRevoke(key)}>
                      Revoke
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
