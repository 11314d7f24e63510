import type { components } from '../../../index.js';
import { capabilityLabel } from '../../components/capability-badges.js';
import { formatInteger, formatUsd } from '../../format.js';

type Permissions = components['schemas']['Permissions'];
type Limits = components['schemas']['Limits'];

/** An account's permissions as short lines for a list; an absent field allows everything, so it is left out. */
export function describePermissions(permissions: Permissions): string[] {
  const lines: string[] = [];
  if (permissions.models) lines.push(`Models: ${permissions.models.join(', ') || 'none'}`);
  if (permissions.capabilities) lines.push(`Capabilities: ${permissions.capabilities.map(capabilityLabel).join(', ') || 'none'}`);
  if (permissions.max_output_tokens !== undefined) lines.push(`Max output tokens: ${formatInteger(permissions.max_output_tokens)}`);
  if (permissions.image_sizes) lines.push(`Image sizes: ${permissions.image_sizes.join(', ') || 'none'}`);
  if (permissions.max_images !== undefined) lines.push(`Max images: ${formatInteger(permissions.max_images)}`);
  return lines;
}

/** An account's limits as short lines; an absent field is no limit. */
export function describeLimits(limits: Limits): string[] {
  const lines: string[] = [];
  if (limits.requests_per_minute !== undefined) lines.push(`${formatInteger(limits.requests_per_minute)} requests/min`);
  if (limits.tokens_per_minute !== undefined) lines.push(`${formatInteger(limits.tokens_per_minute)} tokens/min`);
  if (limits.concurrent_requests !== undefined) lines.push(`${formatInteger(limits.concurrent_requests)} concurrent requests`);
  if (limits.spend_per_day_usd !== undefined) lines.push(`${formatUsd(limits.spend_per_day_usd)}/day`);
  if (limits.spend_per_month_usd !== undefined) lines.push(`${formatUsd(limits.spend_per_month_usd)}/month`);
  return lines;
}
