import type { RequestKind } from './request-kind.js';
import { soakPrompt } from './request-kind.js';
import { check } from './soak-check.js';

/** OpenAI Chat Completions through the `openai` SDK, whole and streamed. */
export function openaiChatKinds(model: string): RequestKind[] {
  const messages = [{ role: 'user' as const, content: soakPrompt }];
  return [
    {
      name: `OpenAI chat · ${model}`,
      weight: 3,
      run: async ({ openai }) => {
        const completion = await openai.chat.completions.create({ model, messages });
        check(completion.choices[0]?.message.content, 'no message content');
      },
    },
    {
      name: `OpenAI chat stream · ${model}`,
      weight: 3,
      run: async ({ openai }) => {
        let text = '';
        let finish: string | null | undefined;
        const stream = await openai.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } });
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          finish ??= chunk.choices[0]?.finish_reason;
        }
        check(text && finish === 'stop', `stream ended with ${text.length} characters, finish_reason ${finish}`);
      },
    },
  ];
}

/**
 * OpenAI Responses through the `openai` SDK, whole and streamed. `store` is left at its default (true), so
 * every call also writes a stored response to SQLite, as a real client's would.
 */
export function openaiResponsesKinds(model: string): RequestKind[] {
  return [
    {
      name: `Responses · ${model}`,
      weight: 3,
      run: async ({ openai }) => {
        const response = await openai.responses.create({ model, input: soakPrompt });
        check(response.status === 'completed' && response.output_text, `status ${response.status}, ${response.output_text.length} characters`);
      },
    },
    {
      name: `Responses stream · ${model}`,
      weight: 3,
      run: async ({ openai }) => {
        let deltas = 0;
        let completed = false;
        const stream = await openai.responses.create({ model, input: soakPrompt, stream: true });
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') deltas++;
          if (event.type === 'response.completed') completed = true;
        }
        check(deltas > 0 && completed, `stream ended with ${deltas} text deltas, completed: ${completed}`);
      },
    },
  ];
}
