import { randomBytes } from 'node:crypto';

/** `file-` and 128 random bits in hex: an ID names a file only together with its owner, but is still not guessable. */
const idPattern = /^file-[0-9a-f]{32}$/;

export function newFileId(): string {
  return `file-${randomBytes(16).toString('hex')}`;
}

/** Whether the string is an ID the gateway could have made: only such IDs are ever joined to a storage path. */
export function isFileId(id: string): boolean {
  return idPattern.test(id);
}
