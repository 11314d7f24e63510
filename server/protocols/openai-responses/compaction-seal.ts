import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What marks a `compaction` item's `encrypted_content` as the gateway's own (version 1 of the format). */
const prefix = 'gw1.';
const ivBytes = 12;
const tagBytes = 16;

/** What opening a `compaction` item's `encrypted_content` finds. */
export type Opened =
  | { kind: 'summary'; summary: string }
  /** Sealed by the gateway, but not for this account, or altered: the client gets a 400. */
  | { kind: 'refused' }
  /** Not the gateway's: an upstream's own blob, which only that kind of upstream can read. */
  | { kind: 'foreign' };

/**
 * Seals the summaries the gateway makes for `compaction` items (for upstreams without compaction of their
 * own) and opens them when they come back. AES-256-GCM, authenticated: the account's ID is the associated
 * data, so an item opens only for the account it was made for and any altered byte is refused. The key is
 * derived with HKDF-SHA256 from the gateway's compaction secret (`GATEWAY_COMPACTION_KEY`, else the store's:
 * store/shared-secret.ts), so the secret may be any length and is never used as a key directly. Format: `gw1.` + base64url(iv | ciphertext | tag).
 *
 * @example
 * const seal = new CompactionSeal(secret);
 * seal.open(seal.seal('The user wants…', 'acct_1'), 'acct_1'); // → { kind: 'summary', summary: 'The user wants…' }
 */
export class CompactionSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'unified-model-api', 'compaction item v1', 32));
  }

  seal(summary: string, account: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(account, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(summary, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return prefix + sealed.toString('base64url');
  }

  open(encryptedContent: string, account: string): Opened {
    if (!isGatewaySealed(encryptedContent)) return { kind: 'foreign' };
    const sealed = Buffer.from(encryptedContent.slice(prefix.length), 'base64url');
    if (sealed.length < ivBytes + tagBytes) return { kind: 'refused' };
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, ivBytes), { authTagLength: tagBytes });
    decipher.setAAD(Buffer.from(account, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
    try {
      const plain = Buffer.concat([decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)), decipher.final()]);
      return { kind: 'summary', summary: plain.toString('utf8') };
    } catch {
      // GCM's tag check failed: another account's item, another gateway's key, or altered bytes.
      return { kind: 'refused' };
    }
  }
}

export function isGatewaySealed(encryptedContent: string): boolean {
  return encryptedContent.startsWith(prefix);
}
