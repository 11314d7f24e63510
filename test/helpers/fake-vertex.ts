// A fake Google Vertex AI, as strict as the real one where the gateway could go wrong: it runs the OAuth2
// token endpoint a service-account key's `token_uri` points at (verifying the RS256 JWT assertion with the
// key's public half), checks the bearer token on every model call, accepts only the exact model paths of
// the configured project and location, and refuses bodies Vertex refuses (text-embedding `predict` bodies:
// fake-vertex-predict.ts). Valid model calls are answered
// from a scripted FakeUpstream (enqueue fixtures on `upstream`). References: test/fixtures/vertex/README.md.
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { predictProblem } from './fake-vertex-predict.js';
import { relayToUpstream } from './relay-to-upstream.js';

/** The `aud` Google's token endpoint requires (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests). */
export const googleTokenAudience = 'https://oauth2.googleapis.com/token';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

/** Top-level fields of Vertex's GenerateContentRequest (…/rest/v1/projects.locations.publishers.models/generateContent). */
const generateContentFields = new Set(['contents', 'systemInstruction', 'cachedContent', 'tools', 'toolConfig', 'labels', 'safetySettings', 'generationConfig', 'modelArmorConfig']);
const methodsByPublisher: Record<string, string[]> = {
  google: ['generateContent', 'streamGenerateContent', 'predict'],
  anthropic: ['rawPredict', 'streamRawPredict'],
};

export interface FakeVertex {
  /** `http://127.0.0.1:<port>`: the provider's `base_url`, and the host of the token endpoint. */
  origin: string;
  project: string;
  location: string;
  /** Answers the model calls that pass the checks; its `requests` are those calls. */
  upstream: FakeUpstream;
  /** Token requests received, granted or not. */
  tokenRequests: number;
  /** Access tokens granted, in order. */
  grantedTokens: string[];
  /** Lifetime (`expires_in`) of the tokens granted from now on. */
  tokenLifetimeSeconds: number;
  /** Model calls refused with 401 (no, unknown or expired bearer token). */
  unauthenticatedCalls: number;
  /** Writes a service-account key file for this fake's account; `foreignKey` signs with a key the fake does not know. */
  writeKeyFile(dir: string, options?: { foreignKey?: boolean; projectId?: string }): Promise<string>;
  /** Makes every token granted so far expired, as if time had passed. */
  expireTokens(): void;
  close(): Promise<void>;
}

interface GrantedToken {
  expiresAt: number;
}

function googleError(response: ServerResponse, code: number, status: string, message: string): void {
  response.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ error: { code, message, status } }));
}

function anthropicError(response: ServerResponse, code: number, message: string): void {
  response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }));
}

function base64UrlJson(part: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Why a JWT assertion is refused, or undefined when it is good: RS256 signed by the account's key, issued
 * by its email, for Google's token audience with the cloud-platform scope, at most an hour long and
 * current (https://developers.google.com/identity/protocols/oauth2/service-account#jwt-auth).
 */
function assertionProblem(assertion: string, publicKey: KeyObject, clientEmail: string, keyId: string): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: not three segments.';
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = base64UrlJson(headerPart);
  const claims = base64UrlJson(payloadPart);
  if (!header || !claims) return 'Invalid JWT: segments are not base64url JSON.';
  if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256.';
  if (header.kid !== undefined && header.kid !== keyId) return 'Invalid JWT Signature.';
  if (!verify('RSA-SHA256', Buffer.from(`${headerPart}.${payloadPart}`), publicKey, Buffer.from(signaturePart, 'base64url'))) return 'Invalid JWT Signature.';
  if (claims.iss !== clientEmail) return 'Invalid JWT: iss is not the service account.';
  if (claims.aud !== googleTokenAudience) return 'Invalid JWT: Failed audience check.';
  if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(cloudPlatformScope)) return 'Invalid JWT: no cloud-platform scope.';
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return 'Invalid JWT: iat and exp are required.';
  if (claims.exp - claims.iat > 3600) return 'Invalid JWT: expiration more than one hour after issue.';
  if (claims.exp <= now || claims.iat > now + 60) return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  return undefined;
}

/**
 * Starts the fake on 127.0.0.1 for one project and location.
 *
 * @example
 * const vertex = await startFakeVertex({ project: 'acme-ai', location: 'europe-west4' });
 * const credentials_file = await vertex.writeKeyFile(dir);
 * vertex.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
 */
export async function startFakeVertex(options: { project: string; location: string }): Promise<FakeVertex> {
  const upstream = await startFakeUpstream();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomBytes(20).toString('hex');
  const clientEmail = `gateway@${options.project}.iam.gserviceaccount.com`;
  const tokens = new Map<string, GrantedToken>();
  const fake: FakeVertex = {
    origin: '',
    project: options.project,
    location: options.location,
    upstream,
    tokenRequests: 0,
    grantedTokens: [],
    tokenLifetimeSeconds: 3600,
    unauthenticatedCalls: 0,
    async writeKeyFile(dir, keyOptions = {}) {
      const signing = keyOptions.foreignKey ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : privateKey;
      const file = join(dir, `service-account-${randomBytes(4).toString('hex')}.json`);
      // The fields of a key downloaded from the Cloud console (https://cloud.google.com/iam/docs/keys-create-delete).
      const key = {
        type: 'service_account',
        project_id: keyOptions.projectId ?? options.project,
        private_key_id: keyId,
        private_key: signing.export({ type: 'pkcs8', format: 'pem' }),
        client_email: clientEmail,
        client_id: '100000000000000000001',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: `${fake.origin}/token`,
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        universe_domain: 'googleapis.com',
      };
      await writeFile(file, JSON.stringify(key, null, 2));
      return file;
    },
    expireTokens() {
      for (const token of tokens.values()) token.expiresAt = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };

  function grantToken(body: string, request: IncomingMessage, response: ServerResponse): void {
    fake.tokenRequests += 1;
    const refuse = (error: string, description: string): void =>
      void response.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error, error_description: description }));
    if (!/^application\/x-www-form-urlencoded\b/.test(request.headers['content-type'] ?? '')) return refuse('invalid_request', 'Bad Request');
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== jwtBearerGrant) return refuse('unsupported_grant_type', `Invalid grant_type: ${form.get('grant_type') ?? ''}`);
    const problem = assertionProblem(form.get('assertion') ?? '', publicKey, clientEmail, keyId);
    if (problem) return refuse('invalid_grant', problem);
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { expiresAt: Date.now() + fake.tokenLifetimeSeconds * 1000 });
    fake.grantedTokens.push(token);
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ access_token: token, expires_in: fake.tokenLifetimeSeconds, token_type: 'Bearer' }));
  }

  /** Why Vertex would refuse this model call (having answered it), or undefined to let it through. */
  function refuseModelCall(url: string, body: string, request: IncomingMessage, response: ServerResponse): boolean {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const granted = bearer ? tokens.get(bearer) : undefined;
    if (!granted || granted.expiresAt <= Date.now()) {
      fake.unauthenticatedCalls += 1;
      googleError(response, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
      return true;
    }
    const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)(\?.*)?$/.exec(url);
    const [, project, location, publisher, model, method, query = ''] = match ?? [];
    if (!match || !methodsByPublisher[publisher!]?.includes(method!)) {
      googleError(response, 404, 'NOT_FOUND', `The requested URL ${url} was not found on this server.`);
      return true;
    }
    if (project !== options.project || location !== options.location) {
      googleError(response, 403, 'PERMISSION_DENIED', `Permission denied on resource project ${project} (or it may not exist) in ${location}.`);
      return true;
    }
    // The gateway always streams as SSE; the fake serves no other form.
    if (query !== (method === 'streamGenerateContent' ? '?alt=sse' : '')) {
      googleError(response, 400, 'INVALID_ARGUMENT', `Unexpected query ${query} for ${method}.`);
      return true;
    }
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      googleError(response, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      return true;
    }
    if (publisher === 'google' && method === 'predict') {
      const refused = predictProblem(json, model!);
      if (refused) googleError(response, 400, 'INVALID_ARGUMENT', refused);
      return refused !== undefined;
    }
    if (publisher === 'google') {
      const unknown = Object.keys(json).find((field) => !generateContentFields.has(field));
      if (unknown) {
        googleError(response, 400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
        return true;
      }
      const contents = json.contents;
      if (!Array.isArray(contents) || contents.length === 0) {
        googleError(response, 400, 'INVALID_ARGUMENT', 'Unable to submit request because it has an empty contents field.');
        return true;
      }
      if (contents.some((content: { role?: unknown }) => content?.role !== 'user' && content?.role !== 'model')) {
        googleError(response, 400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.');
        return true;
      }
      return false;
    }
    // Claude on Vertex (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude).
    if (json.anthropic_version !== 'vertex-2023-10-16') {
      anthropicError(response, 400, 'anthropic_version: Input should be vertex-2023-10-16');
      return true;
    }
    if ('model' in json) {
      anthropicError(response, 400, 'model: Extra inputs are not permitted');
      return true;
    }
    if (!Array.isArray(json.messages) || typeof json.max_tokens !== 'number') {
      anthropicError(response, 400, 'messages and max_tokens: Field required');
      return true;
    }
    if ((json.stream === true) !== (method === 'streamRawPredict')) {
      anthropicError(response, 400, `${method} ${method === 'streamRawPredict' ? 'needs' : 'does not take'} "stream": true`);
      return true;
    }
    return false;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = Buffer.concat(parts).toString('utf8');
    const url = request.url ?? '/';
    if (request.method !== 'POST') return googleError(response, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed.`);
    if (url === '/token') return grantToken(body, request, response);
    if (refuseModelCall(url, body, request, response)) return;
    await relayToUpstream(upstream, url, body, request, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) googleError(response, 500, 'INTERNAL', 'fake vertex failed');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
