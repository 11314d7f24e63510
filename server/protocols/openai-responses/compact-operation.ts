import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelResponse } from '../../core/internal-representation.js';
import { admitModelCall, type ModelCallRequest } from '../../core/model-call.js';
import type { RoutedOperation } from '../../core/route-call.js';
import type { RouteTarget } from '../../core/route-target.js';
import { startTranslatedAnswer } from '../../core/start-translated-answer.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import { summarizingRequest, summaryText } from './compaction-request.js';
import type { sealedCompactionItem } from './render-compaction.js';
import { renderResponsesUsage } from './render-response.js';
import { newResponseId } from './response-ids.js';
import type { ResponsesInputItem } from './wire-types.js';

type CompactBody = SuccessBody<'compactResponse'>;
type Attempt = { target: RouteTarget; droppedParams: string[] } & ({ forwarded: Record<string, unknown>; usage: ModelResponse['usage'] | undefined } | { summary: ModelResponse });

/**
 * `POST /v1/responses/compact` as a routed call (core/route-call.ts), on the conversation `call` reads (a
 * Responses create request of the same input, instructions and `previous_response_id`): admitted as that
 * request would be; an `api: responses` upstream gets the client's body, the conversation resolved, at its
 * own `/responses/compact`; any other is asked for a summary (compaction-request.ts), which comes back sealed
 * (`sealFor`) in one `compaction` item after the input's user messages (`retained`), as OpenAI's answer keeps
 * them. https://platform.openai.com/docs/api-reference/responses/compact
 */
export function compactOperation(
  call: ModelCallRequest,
  clientBody: Record<string, unknown>,
  retained: ResponsesInputItem[],
  sealFor: (summary: string) => ReturnType<typeof sealedCompactionItem>,
): RoutedOperation<Attempt, CompactBody, never> {
  return {
    admit: (registry, access) => admitModelCall(registry, call, access),
    async attempt(target, signal) {
      const compact = target.deployment.provider.passThroughs?.['openai-responses']?.compact;
      if (compact) {
        const forwardBody = call.forwardBody ? call.forwardBody({ ...clientBody }, target) : { ...clientBody };
        const upstreamCall = { upstreamModel: target.deployment.upstreamModel, signal, stream: false, ...(call.forwardHeaders && { headers: call.forwardHeaders }) };
        const forwarded = await compact(forwardBody, upstreamCall);
        return { target, droppedParams: [], forwarded: forwarded.body, usage: forwarded.usage };
      }
      const untranslated = call.untranslated?.(target) ?? [];
      const answer = await startTranslatedAnswer(target, summarizingRequest(call.request('translate')), { stream: false, signal, params: call.params });
      if (answer.kind !== 'collected') throw new Error('a compaction summary is asked for whole');
      return { target, droppedParams: untranslated, summary: answer.response };
    },
    answer(attempt) {
      const { target, droppedParams } = attempt;
      if ('forwarded' in attempt) {
        // The one place the upstream's answer is taken as the contract's shape (core/upstream-answer.ts).
        const forwarded = asUpstreamAnswer<CompactBody>(attempt.forwarded);
        return { target, droppedParams, kind: 'json', body: () => forwarded, usage: attempt.usage };
      }
      const { summary } = attempt;
      const compacted: CompactBody = {
        id: newResponseId(),
        object: 'response.compaction',
        created_at: Math.floor(Date.now() / 1000),
        output: [...retained, sealFor(summaryText(summary.content))] as CompactBody['output'],
        usage: renderResponsesUsage(summary.usage),
      };
      return { target, droppedParams, kind: 'json', body: () => compacted, usage: summary.usage };
    },
  };
}
