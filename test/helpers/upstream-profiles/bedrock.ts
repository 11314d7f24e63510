// AWS Bedrock: ConverseStream, SigV4-signed. The strict fake verifies every signature and body and answers
// in real event stream frames (helpers/fake-bedrock.ts); no client protocol is forwarded as it is.
import { startFakeBedrock, type BedrockAnswer } from '../fake-bedrock.js';
import { upstreamKey, upstreamModel } from '../upstream-gateway.js';
import { gatewayOver } from './gateway-over.js';
import type { UpstreamProfile } from './profile.js';
import { scriptedBedrock } from './replies.js';
import { bedrockAnswers } from './wire-answers.js';
import { bedrockConverseReader } from './wire-readers.js';

const region = 'eu-west-3';
const accessKeyId = 'AKIAFAKEPROFILES0001';

export const bedrockProfile: UpstreamProfile = {
  name: 'bedrock',
  type: 'bedrock',
  async start(options = {}) {
    const queue: BedrockAnswer[] = [];
    const bedrock = await startFakeBedrock({
      region,
      accessKeyId,
      // The secret the gateway must never show, as the other profiles' upstream key.
      secretAccessKey: upstreamKey,
      answer: () => queue.shift() ?? { status: 500, errorType: 'InternalServerException', message: 'fake bedrock: no answer queued' },
    });
    const gateway = await gatewayOver({ type: 'bedrock', base_url: bedrock.origin, region, aws_access_key_id: accessKeyId, aws_secret_access_key: upstreamKey }, options);
    return {
      gateway,
      model: 'test-model',
      upstream: scriptedBedrock(bedrock, queue),
      async close() {
        await gateway.close();
        await bedrock.close();
      },
    };
  },
  upstream: {
    wire: bedrockConverseReader,
    path: () => `/model/${encodeURIComponent(upstreamModel)}/converse-stream`,
    // The fake recorded only calls whose signature it recomputed and found equal.
    authenticated: (request) => request.headers.authorization?.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`) === true,
    modelOf: (request) => decodeURIComponent(/^\/model\/([^/]+)\//.exec(request.url)?.[1] ?? ''),
    ...bedrockAnswers,
  },
};
