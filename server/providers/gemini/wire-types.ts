/**
 * The slice of Gemini's generateContent wire format this provider writes
 * (https://ai.google.dev/api/generate-content). Deliberately minimal: only the fields we set. What we read
 * back is checked by stream-schemas.ts.
 */

/** A request part; exactly one data field is set, `thoughtSignature` rides next to it. */
export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: Record<string, unknown> } };

export type GeminiRole = 'user' | 'model';

export interface GeminiContent {
  role: GeminiRole;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: Record<string, unknown>;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: { thinkingBudget: number; includeThoughts?: boolean };
}

/** The body of `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`. */
export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: { functionCallingConfig: { mode: GeminiFunctionCallingMode; allowedFunctionNames?: string[] } };
  generationConfig?: GeminiGenerationConfig;
}

/** What is read back is described by the schemas in stream-schemas.ts; the pass-through names its usage type here. */
export type { GeminiUsageMetadata } from './stream-schemas.js';
