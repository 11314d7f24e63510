import type { components } from '../../../generated/api.js';
import type { FinishReason, ModelResponse, ReasoningPart, StreamEvent, ToolCallPart, Usage } from '../../core/internal-representation.js';
import {
  finalItemStatus,
  newItemIdFor,
  renderFailedResponse,
  renderOutputItem,
  renderResponse,
  responseSnapshot,
  type ItemStatus,
  type OutputPart,
  type RenderResponseOptions,
  type ResponseEcho,
  type ResponsesOutputItem,
} from './render-response.js';
import { errorEvent, responseErrorFields } from './response-error-event.js';
import { customInputFromArguments, ResponsesToolNames } from './responses-tool-names.js';
import { assertNever } from '../../core/assert-never.js';

// https://platform.openai.com/docs/api-reference/responses-streaming
export type ResponsesStreamEvent = components['schemas']['ResponsesStreamEvent'];
export type ResponseEventsOptions = Omit<RenderResponseOptions, 'itemIds'>;

/** An event before numbering: the generator stamps `sequence_number` as it yields, so numbers never skip. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'sequence_number'> : never;
type Draft = Unnumbered<ResponsesStreamEvent>;

/**
 * Internal stream events → Responses stream events, in the order the OpenAI SDK's accumulator insists on:
 * `response.created` first, every delta after its item's `added` events, each item closed before the next
 * opens, and a terminal event whose response holds every item with the IDs the events used (the SDK
 * replaces its snapshot with it). A failing source ends the stream with `error` and `response.failed`
 * instead of throwing, because the HTTP status was sent long ago.
 */
export async function* toResponseEvents(
  events: AsyncIterable<StreamEvent>,
  echo: ResponseEcho,
  options: ResponseEventsOptions,
): AsyncGenerator<ResponsesStreamEvent> {
  let sequence = 0;
  const numbered = (draft: Draft): ResponsesStreamEvent => ({ ...draft, sequence_number: sequence++ }) as ResponsesStreamEvent;
  const builder = new ResponseEventBuilder(echo, options);
  yield numbered({ type: 'response.created', response: responseSnapshot(echo, options, 'in_progress') });
  yield numbered({ type: 'response.in_progress', response: responseSnapshot(echo, options, 'in_progress') });
  let last: Draft[];
  try {
    for await (const event of events) {
      for (const draft of builder.accept(event)) yield numbered(draft);
    }
    last = builder.complete();
  } catch (error) {
    last = builder.fail(error);
  }
  for (const draft of last) yield numbered(draft);
}

interface OpenItem<P extends OutputPart = OutputPart> {
  id: string;
  outputIndex: number;
  /** The answer part the item renders; it grows as deltas arrive and ends up in the final response. */
  part: P;
  /** Reasoning only: whether `reasoning_summary_part.added` was sent (not before the first text). */
  summaryStarted: boolean;
}

/** Folds events into the answer (as collectStream does) while saying what changed in Responses terms. */
class ResponseEventBuilder {
  private readonly content: ModelResponse['content'] = [];
  private readonly ids: string[] = [];
  private readonly calls = new Map<number, OpenItem<ToolCallPart>>();
  private open: OpenItem | undefined;
  private finishReason: FinishReason = 'stop';
  private usage: Usage | undefined;
  private readonly names: ResponsesToolNames;

  constructor(
    private readonly echo: ResponseEcho,
    private readonly options: ResponseEventsOptions,
  ) {
    this.names = ResponsesToolNames.of(echo.tools);
  }

  accept(event: StreamEvent): Draft[] {
    switch (event.type) {
      // A call's item stays open until the answer ends or another item starts: only then is its status known.
      case 'start':
      case 'tool_call_end':
        return [];
      case 'text_delta':
        return event.text ? this.appendText(event.text) : [];
      case 'reasoning_delta':
        return this.appendReasoning(event);
      case 'tool_call_start': {
        const drafts: Draft[] = [];
        const part: ToolCallPart = { type: 'tool_call', id: event.id, name: event.name, arguments: '' };
        if (event.signature) part.signature = event.signature;
        this.calls.set(event.index, this.begin(part, drafts));
        return drafts;
      }
      case 'tool_call_delta':
        return this.appendArguments(event.index, event.argumentsDelta);
      case 'finish':
        this.finishReason = event.reason;
        return [];
      case 'usage':
        this.usage = event.usage;
        return [];
      default:
        return assertNever(event);
    }
  }

  /** The open item's closing events, then the terminal event with the whole answer. */
  complete(): Draft[] {
    const drafts = this.close(finalItemStatus(this.finishReason));
    const answer: ModelResponse = { content: this.content, finishReason: this.finishReason, usage: this.usage ?? noUsage() };
    const response = renderResponse(answer, this.echo, { ...this.options, itemIds: this.ids });
    drafts.push({ type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
    return drafts;
  }

  /** OpenAI's in-band failure: an `error` event in both the flat and nested forms, then `response.failed`. */
  fail(error: unknown): Draft[] {
    const fields = responseErrorFields(error);
    const failure = { code: fields.code ?? fields.type, message: fields.message, interrupted: this.open !== undefined };
    const partial = { content: this.content, usage: this.usage };
    return [
      errorEvent(fields),
      { type: 'response.failed', response: renderFailedResponse(partial, this.echo, { ...this.options, itemIds: this.ids }, failure) },
    ];
  }

  private appendText(text: string): Draft[] {
    const drafts: Draft[] = [];
    const item = this.current({ type: 'text', text: '' }, drafts);
    item.part.text += text;
    drafts.push({ type: 'response.output_text.delta', ...where(item), content_index: 0, delta: text, logprobs: [] });
    return drafts;
  }

  private appendReasoning(event: Extract<StreamEvent, { type: 'reasoning_delta' }>): Draft[] {
    const drafts: Draft[] = [];
    const item = this.current<ReasoningPart>({ type: 'reasoning', text: '' }, drafts);
    if (event.signature) item.part.signature = event.signature;
    if (event.redacted) item.part.redacted = event.redacted;
    if (!event.text) return drafts;
    const at = { ...where(item), summary_index: 0 };
    if (!item.summaryStarted) {
      item.summaryStarted = true;
      drafts.push({ type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } });
    }
    item.part.text += event.text;
    drafts.push({ type: 'response.reasoning_summary_text.delta', ...at, delta: event.text });
    return drafts;
  }

  private appendArguments(index: number, delta: string): Draft[] {
    const item = this.calls.get(index);
    if (!item) return [];
    item.part.arguments += delta;
    // A delta for a call whose item is already done (an upstream that interleaves calls) cannot be streamed,
    // but it still reaches the final response, which is what the SDK keeps. A custom tool's input is inside
    // the JSON arguments, so it is sent whole when the call ends.
    if (item !== this.open || !delta || this.isCustomCall(item.part)) return [];
    return [{ type: 'response.function_call_arguments.delta', ...where(item), delta }];
  }

  /** The open item if it holds the same kind of part, else a new item (the open one is closed first). */
  private current<P extends OutputPart>(fresh: P, drafts: Draft[]): OpenItem<P> {
    if (this.open?.part.type === fresh.type) return this.open as OpenItem<P>;
    return this.begin(fresh, drafts);
  }

  private begin<P extends OutputPart>(part: P, drafts: Draft[]): OpenItem<P> {
    drafts.push(...this.close('completed'));
    const item: OpenItem<P> = { id: newItemIdFor(part, this.names), outputIndex: this.content.length, part, summaryStarted: false };
    this.content.push(part);
    this.ids.push(item.id);
    this.open = item;
    drafts.push({ type: 'response.output_item.added', output_index: item.outputIndex, item: startedItem(part, item.id, this.names) });
    if (part.type === 'text') {
      drafts.push({ type: 'response.content_part.added', ...where(item), content_index: 0, part: outputText('') });
    }
    return item;
  }

  private isCustomCall(part: OutputPart): boolean {
    return part.type === 'tool_call' && this.names.clientTool(part.name).kind === 'custom';
  }

  private close(status: ItemStatus): Draft[] {
    const item = this.open;
    if (!item) return [];
    this.open = undefined;
    const done: Draft = { type: 'response.output_item.done', output_index: item.outputIndex, item: renderOutputItem(item.part, item.id, status, this.names) };
    const part = item.part;
    switch (part.type) {
      case 'text':
        return [
          { type: 'response.output_text.done', ...where(item), content_index: 0, text: part.text, logprobs: [] },
          { type: 'response.content_part.done', ...where(item), content_index: 0, part: outputText(part.text) },
          done,
        ];
      case 'tool_call': {
        if (this.isCustomCall(part)) {
          const input = customInputFromArguments(part.arguments);
          const delta: Draft[] = input ? [{ type: 'response.custom_tool_call_input.delta', ...where(item), delta: input }] : [];
          return [...delta, { type: 'response.custom_tool_call_input.done', ...where(item), input }, done];
        }
        const name = this.names.clientTool(part.name).name;
        return [{ type: 'response.function_call_arguments.done', ...where(item), name, arguments: part.arguments }, done];
      }
      case 'reasoning':
        if (!item.summaryStarted) return [done];
        return [
          { type: 'response.reasoning_summary_text.done', ...where(item), summary_index: 0, text: part.text },
          { type: 'response.reasoning_summary_part.done', ...where(item), summary_index: 0, part: { type: 'summary_text', text: part.text } },
          done,
        ];
      default:
        return assertNever(part);
    }
  }
}

const where = (item: OpenItem) => ({ item_id: item.id, output_index: item.outputIndex });
const outputText = (text: string) => ({ type: 'output_text' as const, text, annotations: [], logprobs: [] });
const noUsage = (): Usage => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 });

/** The item as `output_item.added` shows it: a message starts with no content parts. */
function startedItem(part: OutputPart, id: string, names: ResponsesToolNames): ResponsesOutputItem {
  const item = renderOutputItem(part, id, 'in_progress', names);
  return item.type === 'message' ? { ...item, content: [] } : item;
}
