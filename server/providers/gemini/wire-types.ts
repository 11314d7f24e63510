/**
 * The slice of Gemini's generateContent wire format this provider writes and reads
 * (https://ai.google.dev/api/generate-content). Deliberately minimal and tolerant: only the fields we set
 * or read, and everything from the upstream optional, because chunks omit what did not change.
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

/** A response part as the upstream sends it: any field may be missing. */
export interface GeminiResponsePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  inlineData?: { mimeType?: string; data?: string };
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiResponsePart[] };
  finishReason?: string;
  index?: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

/** The error body of a non-2xx answer, and of an `error` chunk inside a stream. */
export interface GeminiErrorBody {
  code?: number;
  message?: string;
  status?: string;
}

/** One `GenerateContentResponse`; with `alt=sse` every event is a whole one holding only the delta. */
export interface GeminiChunk {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  error?: GeminiErrorBody;
}
