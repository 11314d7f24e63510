import { JWT } from 'google-auth-library';
import { GatewayError } from '../../core/gateway-error.js';
import { googleTokenAudience, type ServiceAccountKey } from './service-account.js';

/** The scope Vertex AI needs (https://cloud.google.com/vertex-ai/docs/authentication). */
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

/** The token endpoint is on the call path; a stalled one must not hold a request for long. */
const tokenRequestTimeoutMs = 30_000;

/**
 * OAuth2 access tokens for one provider's service account, from google-auth-library's JWT client: it signs
 * an RS256 JWT assertion with the key and exchanges it at the token endpoint
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest), keeps the token, and
 * fetches a new one once it is within 5 minutes of expiry; calls that arrive during a refresh share it.
 * One instance per provider, created once, so all its calls share one token.
 *
 * @example
 * const authorize = vertexAccessTokens('vertex', readServiceAccountKey(config));
 * const headers = await authorize(); // { authorization: 'Bearer ya29.…' }
 */
export function vertexAccessTokens(providerId: string, key: ServiceAccountKey): () => Promise<Record<string, string>> {
  const client = new JWT({ email: key.clientEmail, key: key.privateKey, keyId: key.privateKeyId, scopes: [cloudPlatformScope] });
  // The library posts to Google's own token URL; the key file's `token_uri` says where this account's is.
  if (key.tokenUri !== googleTokenAudience) {
    client.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === googleTokenAudience) options.url = new URL(key.tokenUri);
        return options;
      },
    });
  }
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      options.timeout ??= tokenRequestTimeoutMs;
      return options;
    },
  });
  return async () => {
    let token: string | null | undefined;
    try {
      ({ token } = await client.getAccessToken());
    } catch (error) {
      throw tokenFailure(providerId, error);
    }
    if (!token) throw tokenFailure(providerId, undefined);
    return { authorization: `Bearer ${token}` };
  };
}

/**
 * The token endpoint's refusal as an upstream auth error. Only its HTTP status and OAuth error code
 * (`invalid_grant`) are repeated: nothing from the key, nor the library's wording, which may quote it.
 * A refusal (4xx) sends the router to another deployment; no answer at all (status unknown, 5xx) is retried.
 */
function tokenFailure(providerId: string, error: unknown): GatewayError {
  const failure = error as { status?: number; response?: { status?: number; data?: { error?: unknown } } } | undefined;
  const status = failure?.response?.status ?? failure?.status;
  const code = failure?.response?.data?.error;
  const oauthError = typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? `: ${code}` : '';
  const said = status ? `HTTP ${status}${oauthError}` : error ? 'no answer' : 'no token in the answer';
  return new GatewayError('upstream', `The upstream provider '${providerId}' could not get an access token for its service account (${said}).`, {
    code: 'upstream_authentication_failed',
    upstream: { providerId, status: status !== undefined && status < 500 && status !== 429 && status !== 408 ? 401 : status },
  });
}
