import { anthropicKinds } from './anthropic-kinds.js';
import { disconnectKinds } from './disconnect-kinds.js';
import { refusalKinds } from './refusal-kinds.js';
import { geminiKinds } from './gemini-kinds.js';
import { imageKinds } from './image-kinds.js';
import { openaiChatKinds, openaiResponsesKinds } from './openai-kinds.js';
import type { RequestKind } from './request-kind.js';
import { soakModels } from './soak-gateway-config.js';

/**
 * The soak's mix. Every client protocol, whole and streamed, on the built-in model (answered in process)
 * and on the fake OpenAI upstream (OpenAI chat passed through; Responses, Anthropic and Gemini translated
 * to and from Chat Completions); then images, the model list, refusals and disconnects. Weights are
 * shares of requests: chat about three quarters, the rest a few per cent each.
 */
export const requestKinds: RequestKind[] = [
  ...[soakModels.builtinChat, soakModels.upstreamChat].flatMap((model) => [
    ...openaiChatKinds(model),
    ...openaiResponsesKinds(model),
    ...anthropicKinds(model),
    ...geminiKinds(model),
  ]),
  ...imageKinds,
  ...refusalKinds,
  ...disconnectKinds,
];
