import { randomString } from '../../core/random-string.js';

/** A message ID in Anthropic's style (`msg_` and 24 characters) for answers the gateway writes itself. */
export function newMessageId(): string {
  return `msg_${randomString(18, 'base64url')}`;
}
