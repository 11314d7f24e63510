/**
 * One fake provider that answers all four protocols by path, each by the same script (script.ts): a route's
 * gateway config decides which protocol the gateway speaks to it, and a recording run points a client at it
 * directly. Every request is kept (`requests`), so tests can assert what reached the upstream.
 */
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../../helpers/fake-upstream.js';
import { countTokensReply as anthropicCountTokens, messagesReply, viewMessagesRequest } from './anthropic-messages.js';
import { countTokensReply as geminiCountTokens, geminiReply, viewGeminiRequest } from './gemini.js';
import { chatReply, viewChatRequest } from './openai-chat.js';
import { responsesReply, viewResponsesRequest } from './openai-responses.js';
import { asksForCompaction, compactionReply } from './openai-responses-compaction.js';
import { decideTurn, type AgentScript } from './script.js';

/** A client that loops gets 500s after this many requests, so a run cannot go on for ever. */
const MAX_REQUESTS = 100;

export type ScriptedProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/** The protocol a request speaks, by its path; undefined for anything else (answered 404). */
export function protocolOf(request: Pick<RecordedRequest, 'method' | 'url'>): ScriptedProtocol | 'anthropic-count-tokens' | 'gemini-count-tokens' | undefined {
  const path = request.url.split('?')[0] ?? '';
  if (request.method !== 'POST') return undefined;
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.endsWith('/messages/count_tokens')) return 'anthropic-count-tokens';
  if (path.endsWith('/messages')) return 'anthropic-messages';
  if (path.endsWith(':countTokens')) return 'gemini-count-tokens';
  if (path.endsWith(':generateContent') || path.endsWith(':streamGenerateContent')) return 'gemini';
  return undefined;
}

export function scriptedReply(script: AgentScript, request: RecordedRequest): FakeReply {
  switch (protocolOf(request)) {
    case 'openai-chat':
      return chatReply(decideTurn(script, viewChatRequest(request)), request);
    case 'openai-responses':
      if (asksForCompaction(request)) return compactionReply(request);
      return responsesReply(decideTurn(script, viewResponsesRequest(request)), request);
    case 'anthropic-messages':
      return messagesReply(decideTurn(script, viewMessagesRequest(request)), request);
    case 'gemini':
      return geminiReply(decideTurn(script, viewGeminiRequest(request)), request);
    case 'anthropic-count-tokens':
      return anthropicCountTokens();
    case 'gemini-count-tokens':
      return geminiCountTokens();
    default:
      return { status: 404, json: { error: { message: `scripted upstream: nothing at ${request.method} ${request.url}` } } };
  }
}

/** The view of a request its protocol's module gives: what the script decided from. */
export function viewRequest(request: RecordedRequest) {
  switch (protocolOf(request)) {
    case 'openai-chat':
      return viewChatRequest(request);
    case 'openai-responses':
      return viewResponsesRequest(request);
    case 'anthropic-messages':
      return viewMessagesRequest(request);
    case 'gemini':
      return viewGeminiRequest(request);
    default:
      return undefined;
  }
}

export async function startScriptedUpstream(script: AgentScript): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream();
  upstream.enqueue(...Array.from({ length: MAX_REQUESTS }, () => ({ respond: (request: RecordedRequest) => scriptedReply(script, request) })));
  return upstream;
}
