import { randomString } from '../../core/random-string.js';
import type { ContentPart, ModelResponse, Usage } from '../../core/internal-representation.js';
import { asRecord, parseJson } from '../../providers/upstream/parse-json.js';
import { encodeReasoningState } from '../openai-responses/reasoning-state.js';
import { mapFinishReasonToGemini } from './map-finish-reason.js';
import type { GeminiGenerateContentResponse, GeminiPart, GeminiUsageMetadata } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/** What every response and chunk of one answer repeats. */
export interface GeminiAnswerIds {
  /** The gateway model ID the client asked for, reported as `modelVersion`. */
  model: string;
  responseId: string;
}

/** A response ID shaped like Gemini's (23 characters of base64url). */
export function newGeminiResponseId(): string {
  return randomString(17, 'base64url');
}

/**
 * A whole internal answer as a GenerateContentResponse with one candidate. A content without parts is
 * refused by clients that read `parts`, so an empty answer is one empty text part, as Gemini sends it.
 */
export function renderGenerateResponse(response: ModelResponse, ids: GeminiAnswerIds): GeminiGenerateContentResponse {
  const parts = response.content.map(renderPart);
  return {
    candidates: [
      {
        content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
        finishReason: mapFinishReasonToGemini(response.finishReason),
        index: 0,
      },
    ],
    usageMetadata: renderUsageMetadata(response.usage),
    modelVersion: ids.model,
    responseId: ids.responseId,
  };
}

type OutputPart = Extract<ContentPart, { type: 'text' | 'tool_call' | 'reasoning' }>;

/**
 * One output part. Reasoning becomes a thought part; what its upstream needs back (Anthropic's signature
 * or redacted thinking) rides in `thoughtSignature`, which Gemini clients return unchanged. A tool call's
 * own signature (Gemini 3's) goes on the functionCall part, where Gemini puts it.
 */
export function renderPart(part: OutputPart): GeminiPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'reasoning': {
      const thoughtSignature = encodeReasoningState(part);
      return { text: part.text, thought: true, ...(thoughtSignature && { thoughtSignature }) };
    }
    case 'tool_call':
      return {
        functionCall: { name: part.name, args: asRecord(parseJson(part.arguments)) ?? {} },
        ...(part.signature && { thoughtSignature: part.signature }),
      };
    default:
      return assertNever(part);
  }
}

/**
 * Gemini's prompt count includes cached tokens, as ours does; its candidates count excludes thoughts,
 * which ours includes. Zero details are left out, as Google does.
 */
export function renderUsageMetadata(usage: Usage): GeminiUsageMetadata {
  const candidates = Math.max(0, usage.outputTokens - usage.reasoningTokens);
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.reasoningTokens > 0 && { thoughtsTokenCount: usage.reasoningTokens }),
    ...(usage.cachedInputTokens > 0 && { cachedContentTokenCount: usage.cachedInputTokens }),
  };
}
