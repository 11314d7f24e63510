import type { AwsCredentialIdentity } from '@smithy/types';
import type { ProviderConfig } from '../../config/config-schema.js';

export interface BedrockSettings {
  region: string;
  credentials: AwsCredentialIdentity;
}

/**
 * The region and credentials a Bedrock provider signs with: its config keys, else the standard AWS
 * environment variables, read once when the provider is created. Missing ones stop the gateway at start-up
 * with a message naming both places, rather than failing every request later.
 *
 * @example
 * resolveBedrockSettings({ id: 'aws', type: 'bedrock', region: 'us-east-1' }, process.env);
 */
export function resolveBedrockSettings(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): BedrockSettings {
  const fromConfig = config.aws_access_key_id !== undefined;
  const accessKeyId = fromConfig ? config.aws_access_key_id : env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = fromConfig ? config.aws_secret_access_key : env.AWS_SECRET_ACCESS_KEY;
  // A session token belongs to the key it was issued with: never mix the config's key with the env's token.
  const sessionToken = fromConfig ? config.aws_session_token : env.AWS_SESSION_TOKEN;
  const region = config.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error(`bedrock provider '${config.id}': no region (set region in the config or AWS_REGION)`);
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      `bedrock provider '${config.id}': no AWS credentials (set aws_access_key_id and aws_secret_access_key in the config, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`,
    );
  }
  return { region, credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } };
}
