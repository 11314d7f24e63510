import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { BedrockSettings } from './credentials.js';

/** Bedrock's runtime signs as service `bedrock` (https://docs.aws.amazon.com/bedrock/latest/userguide/security-iam.html). */
export const bedrockSigningService = 'bedrock';

/** Signs one POST for Bedrock: the AWS SDK's own SigV4 signer, so nothing about canonical requests is ours. */
export type BedrockSigner = (url: URL, body: string, headers: Record<string, string>) => Promise<Record<string, string>>;

/**
 * A signer for one provider's region and credentials. It returns the headers to send: the given ones plus
 * `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` (temporary credentials) and `authorization`.
 * `host` is signed as undici will send it (`url.host`), and left out of the returned headers for undici to set.
 *
 * @example
 * const headers = await createBedrockSigner(settings)(new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse'), '{}', { 'content-type': 'application/json' });
 */
export function createBedrockSigner(settings: BedrockSettings): BedrockSigner {
  const signer = new SignatureV4({ service: bedrockSigningService, region: settings.region, credentials: settings.credentials, sha256: Sha256 });
  return async (url, body, headers) => {
    const request = new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      headers: { ...headers, host: url.host },
      body,
    });
    const signed = await signer.sign(request);
    const { host: _host, ...sent } = signed.headers;
    return sent;
  };
}
