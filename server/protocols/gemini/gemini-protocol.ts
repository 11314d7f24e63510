import type { ModelCallProtocol } from '../../core/client-protocol.js';
import { camelCaseFieldNames } from './camel-case-field-names.js';
import { geminiOutputCap } from './gemini-params.js';
import { renderGeminiError } from './render-gemini-error.js';
import { geminiWireScanner } from './scan-gemini.js';

/**
 * generateContent as the layers below the protocols see it (core/client-protocol.ts); index.ts adds its
 * operations. Its fields have a snake_case twin each, folded to camelCase before anything reads them.
 * `generate_content` is its own operation name in the GenAI conventions.
 */
export const geminiProtocol: ModelCallProtocol & { name: 'gemini' } = {
  name: 'gemini',
  family: 'gemini',
  wireScanner: geminiWireScanner,
  canonicalise: camelCaseFieldNames,
  outputCap: geminiOutputCap,
  renderError: renderGeminiError,
  genAiOperationNames: { generation: 'generate_content', embedding: 'embeddings' },
  answerReader: { finishReasonKeys: ['finishReason'], outputOf: (body) => body.candidates },
};
