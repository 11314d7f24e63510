import { z } from 'zod';
import type { ConfigProblem, ProviderEntry, ProviderTypeEntry } from '../../config/provider-entry.js';

/**
 * The config keys only `type: bedrock` takes. Each falls back to the standard AWS environment variable (see
 * credentials.ts), so none is required here.
 */
export const bedrockConfigKeys = {
  /** AWS region of the Bedrock runtime endpoint (`us-east-1`); default `AWS_REGION` / `AWS_DEFAULT_REGION`. */
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region such as us-east-1').optional(),
  /** Default `AWS_ACCESS_KEY_ID`. */
  aws_access_key_id: z.string().min(1).optional(),
  /** Default `AWS_SECRET_ACCESS_KEY`. */
  aws_secret_access_key: z.string().min(1).optional(),
  /** Temporary credentials' token, sent as `x-amz-security-token`; default `AWS_SESSION_TOKEN`. */
  aws_session_token: z.string().min(1).optional(),
};

/**
 * What is wrong with a Bedrock entry's keys: an access key without its secret (or the reverse), a session
 * token without them, or an `api_key`, which SigV4 has no use for.
 */
export function bedrockConfigProblems(provider: ProviderEntry<typeof bedrockConfigKeys>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if ((provider.aws_access_key_id === undefined) !== (provider.aws_secret_access_key === undefined)) {
    problems.push({ path: ['aws_secret_access_key'], message: 'give aws_access_key_id and aws_secret_access_key together (or neither, to use the AWS_* environment variables)' });
  }
  if (provider.aws_session_token !== undefined && provider.aws_access_key_id === undefined) {
    problems.push({ path: ['aws_session_token'], message: 'aws_session_token belongs with aws_access_key_id and aws_secret_access_key' });
  }
  if (provider.api_key !== undefined) {
    problems.push({ path: ['api_key'], message: 'bedrock signs requests with AWS credentials (aws_access_key_id, aws_secret_access_key), not an api_key' });
  }
  return problems;
}

/** The `bedrock` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const bedrockConfigEntry: ProviderTypeEntry<'bedrock', typeof bedrockConfigKeys> = {
  type: 'bedrock',
  serves: { chat: true, responses: false, images: false, embeddings: true, batches: false },
  config: { keys: bedrockConfigKeys, problems: bedrockConfigProblems },
};
