// Vertex AI, one profile per publisher: Gemini (`google`, Gemini's wire format) and Claude (`anthropic`,
// Anthropic's). The strict fake runs the service account's token endpoint and checks every model call's
// token, path and body before the scripted upstream answers it (helpers/fake-vertex.ts).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vertexAnthropicVersion } from '../../../server/providers/vertex/vertex-routes.js';
import { holdsSecret } from '../exposure.js';
import { startFakeVertex } from '../fake-vertex.js';
import { upstreamModel } from '../upstream-gateway.js';
import { gatewayOver } from './gateway-over.js';
import type { UpstreamProfile, UpstreamSide } from './profile.js';
import { scriptedFake } from './replies.js';
import { anthropicAnswers, geminiAnswers } from './wire-answers.js';
import { anthropicMessagesReader, geminiReader, type Received } from './wire-readers.js';
import { modelInPath } from './gemini.js';

const project = 'profile-project';
const location = 'europe-west4';
const modelPath = (publisher: string, method: string) => `/v1/projects/${project}/locations/${location}/publishers/${publisher}/models/${upstreamModel}:${method}`;
// The fake granted the token before the call reached the upstream; Gemini's API key must not come along.
const authenticated = (request: Received) => /^Bearer ya29\.fake-\S+$/.test(request.headers.authorization ?? '') && request.headers['x-goog-api-key'] === undefined;

const sides: Record<'google' | 'anthropic', UpstreamSide> = {
  google: {
    wire: geminiReader,
    passThrough: 'gemini',
    path: (streamed) => (streamed ? `${modelPath('google', 'streamGenerateContent')}?alt=sse` : modelPath('google', 'generateContent')),
    authenticated,
    modelOf: modelInPath,
    ...geminiAnswers,
  },
  anthropic: {
    wire: anthropicMessagesReader,
    passThrough: 'messages',
    path: (streamed) => modelPath('anthropic', streamed ? 'streamRawPredict' : 'rawPredict'),
    authenticated,
    modelOf: modelInPath,
    // The model is in the path; the API version in the body.
    forwardedBody: ({ model: _model, ...sent }) => ({ ...sent, anthropic_version: vertexAnthropicVersion }),
    ...anthropicAnswers,
  },
};

export function vertexProfile(publisher: 'google' | 'anthropic'): UpstreamProfile {
  return {
    name: `vertex (publisher ${publisher})`,
    type: 'vertex',
    async start(options = {}) {
      const vertex = await startFakeVertex({ project, location });
      const dir = await mkdtemp(join(tmpdir(), 'vertex-profile-'));
      const credentialsFile = await vertex.writeKeyFile(dir);
      // The after-suite scan proves no key line and no access token reaches a client or a log.
      const privateKey = (JSON.parse(await readFile(credentialsFile, 'utf8')) as { private_key: string }).private_key;
      holdsSecret(...privateKey.split('\n').filter((line) => /^[A-Za-z0-9+/=]{64}$/.test(line)));
      const gateway = await gatewayOver({ type: 'vertex', base_url: vertex.origin, location, project, publisher, credentials_file: credentialsFile }, options);
      return {
        gateway,
        model: 'test-model',
        upstream: scriptedFake(vertex.upstream),
        async close() {
          holdsSecret(...vertex.grantedTokens);
          await gateway.close();
          await vertex.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
    upstream: sides[publisher],
  };
}
