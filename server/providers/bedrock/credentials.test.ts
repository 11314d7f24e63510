import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configSchema } from '../../config/config-schema.js';
import { resolveBedrockSettings } from './credentials.js';

const parse = (provider: Record<string, unknown>) => configSchema.safeParse({ providers: [{ id: 'aws', ...provider }] });
const messages = (provider: Record<string, unknown>) => {
  const result = parse(provider);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('bedrock config keys', () => {
  it('accepts a full set of keys, and none (the AWS_* variables then)', () => {
    assert.deepEqual(messages({ type: 'bedrock', region: 'eu-west-3', aws_access_key_id: 'AKIA1', aws_secret_access_key: 's', aws_session_token: 't' }), []);
    assert.deepEqual(messages({ type: 'bedrock' }), []);
  });

  it('refuses half a key pair, a token without a key, an api_key, a malformed region, and the keys on other types', () => {
    assert.match(messages({ type: 'bedrock', aws_access_key_id: 'AKIA1' }).join(), /providers\.0\.aws_secret_access_key: give aws_access_key_id and aws_secret_access_key together/);
    assert.match(messages({ type: 'bedrock', aws_session_token: 't' }).join(), /aws_session_token belongs with/);
    assert.match(messages({ type: 'bedrock', api_key: 'k' }).join(), /providers\.0\.api_key: bedrock signs requests/);
    assert.match(messages({ type: 'bedrock', region: 'Frankfurt' }).join(), /providers\.0\.region/);
    assert.match(messages({ type: 'openai', region: 'us-east-1' }).join(), /providers\.0\.region: region is for bedrock providers only/);
  });
});

describe('resolveBedrockSettings', () => {
  const env = { AWS_ACCESS_KEY_ID: 'AKIAENV', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_SESSION_TOKEN: 'env-token', AWS_REGION: 'us-west-2' };

  it('prefers the config and never mixes its key with the token from the environment', () => {
    const settings = resolveBedrockSettings({ id: 'aws', type: 'bedrock', region: 'eu-west-3', aws_access_key_id: 'AKIA1', aws_secret_access_key: 's' }, env);
    assert.deepEqual(settings, { region: 'eu-west-3', credentials: { accessKeyId: 'AKIA1', secretAccessKey: 's' } });
  });

  it('falls back to the AWS_* variables, AWS_DEFAULT_REGION last', () => {
    assert.deepEqual(resolveBedrockSettings({ id: 'aws', type: 'bedrock' }, env), {
      region: 'us-west-2',
      credentials: { accessKeyId: 'AKIAENV', secretAccessKey: 'env-secret', sessionToken: 'env-token' },
    });
    assert.equal(resolveBedrockSettings({ id: 'aws', type: 'bedrock' }, { ...env, AWS_REGION: undefined, AWS_DEFAULT_REGION: 'ap-south-1' }).region, 'ap-south-1');
  });

  it('stops at start-up with a message naming both places when something is missing', () => {
    assert.throws(() => resolveBedrockSettings({ id: 'aws', type: 'bedrock' }, { AWS_REGION: 'us-east-1' }), /no AWS credentials \(set aws_access_key_id .* or AWS_ACCESS_KEY_ID/);
    assert.throws(() => resolveBedrockSettings({ id: 'aws', type: 'bedrock' }, { ...env, AWS_REGION: undefined }), /no region/);
  });
});
