// The one table of upstream profiles every protocol's SDK suite iterates. It is keyed by provider type, so
// a type added to the config without a profile here fails type-checking.
import { providerTypes, type ProviderType } from '../../../server/providers/registry.js';
import { anthropicProfile } from './anthropic.js';
import { bedrockProfile } from './bedrock.js';
import { builtinProfile } from './builtin.js';
import { geminiProfile } from './gemini.js';
import { azureOpenaiProfile, openaiProfile } from './openai.js';
import type { ClientProtocol, TextAnswer, ToolCallAnswer, UpstreamProfile, UpstreamSide } from './profile.js';
import { vertexProfile } from './vertex.js';

export type { ClientProtocol, ProfileSetup, Reply, UpstreamProfile, UpstreamSide } from './profile.js';
export { paced } from './replies.js';

export const profilesByType: { readonly [Type in ProviderType]: readonly UpstreamProfile[] } = {
  openai: [openaiProfile('openai')],
  anthropic: [anthropicProfile],
  gemini: [geminiProfile],
  'openai-compatible': [openaiProfile('openai-compatible')],
  builtin: [builtinProfile],
  'azure-openai': [azureOpenaiProfile],
  bedrock: [bedrockProfile],
  // One provider serves one publisher: both run.
  vertex: [vertexProfile('google'), vertexProfile('anthropic')],
};

for (const type of providerTypes) {
  for (const profile of profilesByType[type]) if (profile.type !== type) throw new Error(`profile ${profile.name} is filed under ${type}`);
}

export const upstreamProfiles: readonly UpstreamProfile[] = providerTypes.flatMap((type) => profilesByType[type]);

/** Whether a client request in `protocol` is forwarded as it is: only a forwarded non-stream request is answered whole. */
export const forwards = (side: UpstreamSide, protocol: ClientProtocol) => side.passThrough === protocol;
export const streamsUpstream = (side: UpstreamSide, protocol: ClientProtocol, clientStreams: boolean) => clientStreams || !forwards(side, protocol);

/** The plain answer the fake replays to a client request in `protocol`, and the text the client reads. */
export const textAnswer = (side: UpstreamSide, protocol: ClientProtocol, clientStreams: boolean): TextAnswer =>
  streamsUpstream(side, protocol, clientStreams) ? side.text.stream : side.text.whole;

export const toolCallAnswer = (side: UpstreamSide, protocol: ClientProtocol, clientStreams: boolean): ToolCallAnswer =>
  streamsUpstream(side, protocol, clientStreams) ? side.toolCall.stream : side.toolCall.whole;
