import type { RequestKind } from './request-kind.js';
import { soakPrompt } from './request-kind.js';
import { check } from './soak-check.js';

/** Gemini generateContent and streamGenerateContent (`alt=sse`) through `@google/genai`. */
export function geminiKinds(model: string): RequestKind[] {
  return [
    {
      name: `Gemini generateContent · ${model}`,
      weight: 3,
      run: async ({ gemini }) => {
        const response = await gemini.models.generateContent({ model, contents: soakPrompt });
        check(response.text && response.candidates?.[0]?.finishReason === 'STOP', `finishReason ${response.candidates?.[0]?.finishReason}`);
      },
    },
    {
      name: `Gemini streamGenerateContent · ${model}`,
      weight: 3,
      run: async ({ gemini }) => {
        let text = '';
        let finish: string | undefined;
        for await (const chunk of await gemini.models.generateContentStream({ model, contents: soakPrompt })) {
          text += chunk.text ?? '';
          finish = chunk.candidates?.[0]?.finishReason ?? finish;
        }
        check(text && finish === 'STOP', `stream ended with ${text.length} characters, finishReason ${finish}`);
      },
    },
  ];
}
