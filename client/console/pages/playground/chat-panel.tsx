import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { components } from '../../../index.js';
import { isAbort } from '../../api/describe-error.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { formatInteger } from '../../format.js';
import { useSignedIn } from '../../session-context.js';

type ChatMessage = { role: 'user' | 'assistant'; content: string };
type ChunkUsage = components['schemas']['ChatCompletionChunk']['usage'];

/**
 * A streamed chat through `POST /v1/chat/completions`: the reply grows as chunks arrive, Stop aborts the
 * request (the gateway stops the upstream too), and the last chunk's usage is shown when it ends.
 */
export function ChatPanel({ model }: { model: string }) {
  const { client } = useSignedIn();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>();
  const [outcome, setOutcome] = useState('');
  const controller = useRef<AbortController | undefined>(undefined);
  const log = useRef<HTMLDivElement>(null);
  const messageId = useId();
  const hintId = useId();

  // Leaving the page mid-reply stops the request rather than leaving it running unseen.
  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [messages]);

  async function send() {
    const text = draft.trim();
    if (!text || streaming) return;
    const history: ChatMessage[] = [...messages, { role: 'user', content: text }];
    setMessages([...history, { role: 'assistant', content: '' }]);
    setDraft('');
    setError(undefined);
    setOutcome('');
    setStreaming(true);
    const abort = new AbortController();
    controller.current = abort;
    let usage: ChunkUsage;
    try {
      const stream = client.streamChatCompletion({ model, messages: history, stream_options: { include_usage: true } }, { signal: abort.signal });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta.content ?? '';
        if (delta) appendToReply(delta);
        if (chunk.usage) usage = chunk.usage;
      }
      setOutcome(usage ? `Reply complete · ${formatInteger(usage.prompt_tokens)} tokens in, ${formatInteger(usage.completion_tokens)} out` : 'Reply complete');
    } catch (failure) {
      if (isAbort(failure) || abort.signal.aborted) setOutcome('Stopped.');
      else setError(failure);
      // A reply that never started is dropped rather than left as an empty bubble.
      setMessages((current) => (current.at(-1)?.content === '' ? current.slice(0, -1) : current));
    } finally {
      setStreaming(false);
      controller.current = undefined;
    }
  }

  function appendToReply(delta: string) {
    setMessages((current) => {
      const last = current.at(-1)!;
      return [...current.slice(0, -1), { ...last, content: last.content + delta }];
    });
  }

  return (
    <section class="card panel" aria-labelledby="chat-heading">
      <h2 id="chat-heading">Chat</h2>
      <div ref={log} class="chat-log" role="log" aria-label="Conversation" aria-busy={streaming} tabIndex={0}>
        {messages.length === 0 && <p class="hint">Send a message to start. Replies stream in as the model writes them.</p>}
        {messages.map((message, index) => (
          <article key={index} class={`message message-${message.role}`} aria-label={message.role === 'user' ? 'You' : 'Assistant'}>
            <span class="message-role" aria-hidden="true">
              {message.role === 'user' ? 'You' : model}
            </span>
            <p class="message-text">{message.content || (streaming && index === messages.length - 1 ? '…' : '')}</p>
          </article>
        ))}
      </div>
      <p class="status-note" role="status">
        {streaming ? 'The model is replying…' : outcome}
      </p>
      <ErrorAlert error={error} />
      <form
        class="chat-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <div class="field">
          <label for={messageId}>Message</label>
          <textarea
            id={messageId}
            rows={3}
            required
            value={draft}
            aria-describedby={hintId}
            onInput={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
                event.preventDefault();
                void send();
              }
            }}
          />
          <p id={hintId} class="hint">
            Enter sends; Shift+Enter starts a new line.
          </p>
        </div>
        <div class="button-row">
          <button type="submit" class="button button-primary" disabled={streaming}>
            Send
          </button>
          <button type="button" class="button" disabled={!streaming} onClick={() => controller.current?.abort()}>
            Stop
          </button>
          <button
            type="button"
            class="button"
            disabled={streaming || messages.length === 0}
            onClick={() => {
              setMessages([]);
              setOutcome('');
              setError(undefined);
            }}
          >
            Clear conversation
          </button>
        </div>
      </form>
    </section>
  );
}
