import type { components } from '../../../index.js';

type Permissions = components['schemas']['Permissions'];
type Limits = components['schemas']['Limits'];
type Capability = components['schemas']['ModelCapability'];

/** The permissions form as typed: text fields hold strings, empty meaning "no restriction". */
export interface PermissionsDraft {
  models: string;
  capabilities: Capability[];
  max_output_tokens: string;
  image_sizes: string;
  max_images: string;
}

export type LimitsDraft = Record<keyof Limits, string>;

export const limitFields: { name: keyof Limits; label: string; hint: string; money?: boolean }[] = [
  { name: 'requests_per_minute', label: 'Requests per minute', hint: 'Model and image requests.' },
  { name: 'tokens_per_minute', label: 'Tokens per minute', hint: 'Input and output tokens together.' },
  { name: 'concurrent_requests', label: 'Concurrent requests', hint: 'Requests in flight at once.' },
  { name: 'spend_per_day_usd', label: 'Spend per day (USD)', hint: 'Per UTC day, from the models’ prices.', money: true },
  { name: 'spend_per_month_usd', label: 'Spend per month (USD)', hint: 'Per UTC month.', money: true },
];

export function permissionsDraft(permissions: Permissions): PermissionsDraft {
  return {
    models: (permissions.models ?? []).join('\n'),
    capabilities: permissions.capabilities ?? [],
    max_output_tokens: permissions.max_output_tokens?.toString() ?? '',
    image_sizes: (permissions.image_sizes ?? []).join('\n'),
    max_images: permissions.max_images?.toString() ?? '',
  };
}

/**
 * The permissions to send: empty fields are left out (no restriction), and so is a capability list with
 * nothing ticked, since an empty list would forbid everything, which no one means by ticking nothing.
 */
export function permissionsFromDraft(draft: PermissionsDraft): Permissions {
  const permissions: Permissions = {};
  const models = lines(draft.models);
  if (models.length) permissions.models = models;
  if (draft.capabilities.length) permissions.capabilities = draft.capabilities;
  if (draft.max_output_tokens.trim()) permissions.max_output_tokens = Number(draft.max_output_tokens);
  const sizes = lines(draft.image_sizes);
  if (sizes.length) permissions.image_sizes = sizes;
  if (draft.max_images.trim()) permissions.max_images = Number(draft.max_images);
  return permissions;
}

export function limitsDraft(limits: Limits): LimitsDraft {
  return Object.fromEntries(limitFields.map((field) => [field.name, limits[field.name]?.toString() ?? ''])) as LimitsDraft;
}

export function limitsFromDraft(draft: LimitsDraft): Limits {
  const limits: Limits = {};
  for (const field of limitFields) if (draft[field.name].trim()) limits[field.name] = Number(draft[field.name]);
  return limits;
}

// One entry per line; commas separate too, since image sizes are often typed as a list.
function lines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
}
