import { chatProtocol } from './chat-protocol.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import { framesOf } from '../../core/frames-of.js';
import type { GatewayError } from '../../core/gateway-error.js';
import type { ModelCall } from '../../core/model-call.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import { renderOpenAIError } from './render-openai-error.js';
import { chatDroppedFields, chatFeatureParams, chatOutputCap } from './chat-params.js';
import { convertChatRequest } from './convert-chat-request.js';
import { newChatCompletionId, renderChatCompletion } from './render-chat-completion.js';
import { toChatChunks } from './to-chat-chunks.js';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatStreamData } from './wire-types.js';

/**
 * A Chat Completions request for the model-call pipeline (core/model-call.ts): forwarded as it is to an
 * upstream that speaks Chat Completions, translated for the others. Failures once a stream has begun go
 * in-band as an error chunk, as OpenAI does, so the SDK throws instead of hanging.
 */
export function chatCall(clientBody: ChatCompletionRequest, outputTokenCeiling: number | undefined): ModelCall<SuccessBody<'createChatCompletion'>, ChatStreamData> {
  const body = withOutputCap(clientBody, chatOutputCap, outputTokenCeiling);
  let request: ModelRequest | undefined;
  const errorFrames = (error: GatewayError) => [{ data: renderOpenAIError(error) }];
  return {
    protocol: chatProtocol,
    model: body.model,
    stream: body.stream === true,
    clientBody,
    body: body as Record<string, unknown>,
    params: { ...chatFeatureParams, maxOutputTokens: body.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens' },
    droppedFields: chatDroppedFields,
    request: () => (request ??= { ...convertChatRequest(body), outputTokenCeiling }),
    forwarded: {
      json: (answer) => asUpstreamAnswer<SuccessBody<'createChatCompletion'>>(answer),
      stream: (frames) => ({ frames: framesOf(frames, ({ data }) => ({ data: asUpstreamAnswer<ChatStreamData>(data) })), errorFrames }),
    },
    translated: {
      json: (response) => renderChatCompletion(response, body.model),
      stream: (events) => ({ frames: framesOf(withDone(chunksOf(events, body)), (data): { data: ChatStreamData } => ({ data })), errorFrames }),
    },
  };
}

function chunksOf(events: AsyncIterable<StreamEvent>, body: ChatCompletionRequest): AsyncIterable<ChatCompletionChunk> {
  return toChatChunks(events, {
    id: newChatCompletionId(),
    model: body.model,
    created: Math.floor(Date.now() / 1000),
    includeUsage: body.stream_options?.include_usage === true,
  });
}

async function* withDone(chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ChatCompletionChunk | '[DONE]'> {
  yield* chunks;
  yield '[DONE]';
}
