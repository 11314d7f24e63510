import type { RequestKind } from './request-kind.js';
import { soakPrompt } from './request-kind.js';
import { check } from './soak-check.js';

/** Anthropic Messages through `@anthropic-ai/sdk`, whole and streamed (raw events, as `stream: true` gives them). */
export function anthropicKinds(model: string): RequestKind[] {
  const params = { model, max_tokens: 512, messages: [{ role: 'user' as const, content: soakPrompt }] };
  return [
    {
      name: `Anthropic messages · ${model}`,
      weight: 3,
      run: async ({ anthropic }) => {
        const message = await anthropic.messages.create(params);
        const first = message.content[0];
        check(first?.type === 'text' && first.text && message.stop_reason === 'end_turn', `stop_reason ${message.stop_reason}, content ${first?.type}`);
      },
    },
    {
      name: `Anthropic messages stream · ${model}`,
      weight: 3,
      run: async ({ anthropic }) => {
        let deltas = 0;
        let stopped = false;
        const stream = await anthropic.messages.create({ ...params, stream: true });
        for await (const event of stream) {
          if (event.type === 'content_block_delta') deltas++;
          if (event.type === 'message_stop') stopped = true;
        }
        check(deltas > 0 && stopped, `stream ended with ${deltas} deltas, message_stop: ${stopped}`);
      },
    },
  ];
}
