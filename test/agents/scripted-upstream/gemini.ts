/**
 * The scripted fake's Gemini side (`POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`
 * and `:countTokens`), written from Google's API reference: https://ai.google.dev/api/generate-content (the
 * request, `GenerateContentResponse`; a stream is a series of them) and https://ai.google.dev/api/tokens.
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { compactionView, contentText, resultText, type Decision, type RequestView } from './script.js';

interface GeminiPart {
  text?: string;
  functionResponse?: { name?: string; response?: unknown };
}
interface GeminiBody {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }>; function_declarations?: Array<{ name?: string }> }>;
}

export function viewGeminiRequest(request: RecordedRequest): RequestView {
  const body = (request.json ?? {}) as GeminiBody;
  const parts = (body.contents ?? []).flatMap((content) => content.parts ?? []);
  const lastUser = (body.contents ?? []).filter((content) => content.role === 'user').at(-1);
  return {
    ...compactionView(contentText(lastUser?.parts), request.body),
    stream: request.url.includes(':streamGenerateContent'),
    toolNames: (body.tools ?? []).flatMap((tool) => [...(tool.functionDeclarations ?? []), ...(tool.function_declarations ?? [])]).flatMap((declaration) => (declaration.name ? [declaration.name] : [])),
    toolResults: parts.flatMap((part) => (part.functionResponse ? [resultText(part.functionResponse.response)] : [])),
  };
}

export function countTokensReply(): FakeReply {
  return { json: { totalTokens: 10 } };
}

export function geminiReply(decision: Decision, request: RecordedRequest): FakeReply {
  const part = decision.kind === 'tool_call' ? { functionCall: { name: decision.name, args: JSON.parse(decision.arguments) as unknown } } : { text: decision.text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'scripted',
    responseId: 'scripted-response',
  };
  if (!request.url.includes(':streamGenerateContent')) return { json: answer };
  // Without `alt=sse` a stream is one JSON array of the same objects.
  if (!request.url.includes('alt=sse')) return { json: [answer] };
  // The live API ends SSE lines with CRLF; a client must read either.
  return { sse: [{ data: JSON.stringify(answer) }], crlf: true };
}
