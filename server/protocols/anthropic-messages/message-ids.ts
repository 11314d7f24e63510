import { randomBytes } from 'node:crypto';

/** A message ID in Anthropic's style (`msg_` and 24 characters) for answers the gateway writes itself. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}
