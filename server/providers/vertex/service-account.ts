import { readFileSync } from 'node:fs';
import type { ProviderConfig } from '../../config/config-schema.js';

/** The fields of a service-account JSON key the gateway uses (the file Google Cloud's console downloads). */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  projectId?: string;
  /** Where the signed JWT is exchanged for an access token (`https://oauth2.googleapis.com/token`). */
  tokenUri: string;
}

const googleTokenUri = 'https://oauth2.googleapis.com/token';

/**
 * Reads the provider's key file once, when the provider is created at start-up (not on the request path),
 * so a missing or wrong file stops the gateway with a clear message instead of failing every call.
 * Messages name the file and the field, never its contents.
 */
export function readServiceAccountKey(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): ServiceAccountKey {
  const file = config.credentials_file ?? env.GOOGLE_APPLICATION_CREDENTIALS;
  const problem = (why: string) => new Error(`provider '${config.id}' (vertex): ${why}`);
  if (!file) throw problem('no service-account key: set credentials_file or GOOGLE_APPLICATION_CREDENTIALS');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw problem(`cannot read the service-account key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'not JSON'})`);
  }
  if (json?.type !== 'service_account') throw problem(`${file} is not a service-account key ("type": "service_account")`);
  const text = (field: string) => (typeof json[field] === 'string' && json[field] !== '' ? (json[field] as string) : undefined);
  const clientEmail = text('client_email');
  const privateKey = text('private_key');
  if (!clientEmail || !privateKey) throw problem(`${file} lacks client_email or private_key`);
  return { clientEmail, privateKey, privateKeyId: text('private_key_id'), projectId: text('project_id'), tokenUri: text('token_uri') ?? googleTokenUri };
}

/** The JWT audience Google's token endpoint requires, whatever `token_uri` the request is sent to. */
export const googleTokenAudience = googleTokenUri;
