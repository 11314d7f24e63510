import {
  eachObject,
  type FieldTable,
  fieldParam,
  isRecord,
  isSet,
  itemParam,
  lookup,
  outputTokens,
  scanFields,
  toolChoice,
  useCapability,
} from '../../access/wire-scan/scan-fields.js';
import type { Walker, WireScan, WireScanner } from '../../access/wire-scan/wire-scan.js';

/**
 * What a generateContent or countTokens body asks of the upstream, field by field, following
 * https://ai.google.dev/api/generate-content and https://ai.google.dev/api/tokens (and openapi.yaml's
 * GeminiGenerateContentRequest). Google's JSON parser takes every field by its proto name
 * (`generation_config`) as well as its JSON name (`generationConfig`), so the tables are in camelCase and
 * keys are looked up in that spelling; params keep the client's. Enums may come as names in any case or
 * as proto numbers.
 */

const camelCase = (key: string): string => key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

const scanGeminiFields = (value: unknown, param: string, table: FieldTable, scan: WireScan): void => scanFields(value, param, table, scan, camelCase);
const fields =
  (table: FieldTable): Walker =>
  (value, param, scan) =>
    scanGeminiFields(value, param, table, scan);

/** Media returned by a function (Gemini 3's multimodal function responses). */
const functionResponsePart: FieldTable = { inlineData: 'vision', fileData: 'vision' };

const functionResponse: FieldTable = {
  id: 'none',
  name: 'none',
  response: 'none',
  willContinue: 'none',
  scheduling: 'none',
  parts: eachObject(functionResponsePart, camelCase),
};

/**
 * A part is told apart by which data field it sets. Inline bytes and file URIs are media (images, PDFs,
 * audio, video) and ask for `vision`; code-execution parts echo Google's code execution tool.
 */
const part: FieldTable = {
  text: 'none',
  thought: 'none',
  thoughtSignature: 'none',
  partMetadata: 'none',
  videoMetadata: 'none',
  mediaResolution: 'none',
  functionCall: 'none',
  functionResponse: fields(functionResponse),
  inlineData: 'vision',
  fileData: 'vision',
  executableCode: 'tools',
  codeExecutionResult: 'tools',
};

/** `function` is the legacy role of function responses; a role may be left out. */
const roles = new Set(['user', 'model', 'function']);

const content: FieldTable = {
  role: (value, param, scan) => {
    if (!(typeof value === 'string' && roles.has(value))) scan.unknown.push(param);
  },
  parts: eachObject(part, camelCase),
};

/** Google ignores the role of a system instruction. */
const systemInstruction: FieldTable = { role: 'none', parts: eachObject(part, camelCase) };

/** Every field of a tool object is a kind of tool; Google's own are forwarded only by a pass-through. */
const toolKinds = new Set(['functionDeclarations', 'googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext', 'computerUse', 'fileSearch', 'googleMaps']);

const tools: Walker = (value, param, scan) => {
  if (!Array.isArray(value)) return useCapability(scan, 'tools', param);
  value.forEach((tool, index) => {
    const toolParam = itemParam(param, index);
    if (!isRecord(tool)) return useCapability(scan, 'tools', toolParam);
    for (const [key, kind] of Object.entries(tool)) {
      if (!isSet(kind)) continue;
      if (!toolKinds.has(camelCase(key))) scan.unknown.push(fieldParam(toolParam, key));
      useCapability(scan, 'tools', fieldParam(toolParam, key));
    }
  });
};

/** `AUTO`, `NONE` and `VALIDATED` let the model choose (proto numbers 1, 3, 4); `ANY` forces a call. */
const functionCallingConfig: FieldTable = {
  mode: toolChoice(['mode_unspecified', 'auto', 'none', 'validated', '0', '1', '3', '4']),
  allowedFunctionNames: 'none',
};

const toolConfig: FieldTable = {
  functionCallingConfig: fields(functionCallingConfig),
  // The location the Google Maps tool searches around; the tool itself is gated.
  retrievalConfig: 'none',
};

/** Any thinking setting asks for reasoning, except turning thought summaries off. */
const thinkingConfig: FieldTable = {
  thinkingBudget: (value, param, scan) => {
    useCapability(scan, 'reasoning', param);
    outputTokens('reasoning_budget')(value, param, scan);
  },
  thinkingLevel: 'reasoning',
  includeThoughts: (value, param, scan) => {
    if (value !== false) useCapability(scan, 'reasoning', param);
  },
};

const modalityMeaning: Readonly<Record<string, 'text' | 'image'>> = { TEXT: 'text', 1: 'text', MODALITY_UNSPECIFIED: 'text', 0: 'text', IMAGE: 'image', 2: 'image' };

const modalityOf = (modality: unknown): string | undefined =>
  typeof modality === 'string' || typeof modality === 'number' ? lookup(modalityMeaning, String(modality).toUpperCase()) : undefined;

/** Text is what every request gets; images are image generation; audio output no capability covers. */
const responseModalities: Walker = (value, param, scan) => {
  const meanings: (string | undefined)[] = Array.isArray(value) ? value.map(modalityOf) : ['image'];
  if (meanings.includes(undefined)) scan.unknown.push(param);
  if (meanings.includes('image')) useCapability(scan, 'image_generation', param);
};

const generationConfig: FieldTable = {
  // Sampling and shaping settings: they shape an answer, they do not widen what it may use.
  temperature: 'none',
  topP: 'none',
  topK: 'none',
  seed: 'none',
  presencePenalty: 'none',
  frequencyPenalty: 'none',
  stopSequences: 'none',
  candidateCount: outputTokens('candidates'),
  responseLogprobs: 'none',
  logprobs: 'none',
  enableEnhancedCivicAnswers: 'none',
  mediaResolution: 'none',
  // A JSON MIME type alone is JSON mode; the schema is what makes structured output.
  responseMimeType: 'none',
  responseSchema: 'json_schema',
  responseJsonSchema: 'json_schema',
  maxOutputTokens: outputTokens('max_output'),
  thinkingConfig: (value, param, scan) => (isRecord(value) ? scanGeminiFields(value, param, thinkingConfig, scan) : useCapability(scan, 'reasoning', param)),
  responseModalities,
  // Aspect ratio and size of generated images.
  imageConfig: 'image_generation',
  // Spoken output: no capability covers it.
  speechConfig: 'unknown',
};

const generateContentRequest: FieldTable = {
  // countTokens' generateContentRequest names its model.
  model: 'none',
  contents: eachObject(content, camelCase),
  systemInstruction: fields(systemInstruction),
  tools,
  toolConfig: fields(toolConfig),
  // Google's content filters: they can only withhold an answer.
  safetySettings: 'none',
  generationConfig: fields(generationConfig),
  // A cache holds its own contents, system instruction and tools, none of which is visible here.
  cachedContent: 'unknown',
};

/** countTokens takes `contents` alone, or a whole generateContentRequest; generateContent the fields themselves. */
const topLevel: FieldTable = { ...generateContentRequest, generateContentRequest: fields(generateContentRequest) };

export function scanGemini(body: Record<string, unknown>, scan: WireScan): void {
  scanGeminiFields(body, '', topLevel, scan);
}

/** How the permissions read a raw gemini body (access/wire-scan/wire-scan.ts). */
export const geminiWireScanner: WireScanner = { body: scanGemini };
