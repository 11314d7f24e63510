import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { junkBodies, recordedRequests, specExamples, specFields, usesOf } from '../../../test/helpers/wire-scan-support.js';
import { scanWireBody } from '../../access/wire-scan/wire-scan.js';
import { geminiWireScanner } from './scan-gemini.js';

const contents = [{ role: 'user', parts: [{ text: 'Hi' }] }];
const scan = (fields: Record<string, unknown>) => scanWireBody(geminiWireScanner, { contents, ...fields });
const inlineImage = { mimeType: 'image/png', data: 'AA==' };

/** What the Vercel AI SDK's Google provider and Google's own SDKs send: every ordinary field at once. */
const ordinaryBody = {
  systemInstruction: { parts: [{ text: 'You are terse.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Weather?' }] },
    { role: 'model', parts: [{ functionCall: { name: 'weather', args: {} }, thoughtSignature: 'Eskg' }] },
    { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: { temperature: 20 } } } }] },
    { role: 'model', parts: [{ text: 'Thinking…', thought: true }, { text: 'It is 20°C.' }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'weather', parametersJsonSchema: { type: 'object' } }] }],
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
  safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
  generationConfig: {
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    seed: 1,
    stopSequences: ['END'],
    candidateCount: 1,
    presencePenalty: 0,
    frequencyPenalty: 0,
    responseMimeType: 'text/plain',
    responseModalities: ['TEXT'],
    mediaResolution: 'MEDIA_RESOLUTION_LOW',
    maxOutputTokens: 256,
  },
};

describe('scanWireBody gemini', () => {
  it('finds nothing unknown in the spec examples, the recorded requests and an ordinary SDK body', () => {
    const bodies = [...specExamples('GeminiGenerateContentRequest'), ...specExamples('GeminiCountTokensRequest'), ...recordedRequests('gemini'), ['ordinary', ordinaryBody] as [string, unknown]];
    for (const [name, body] of bodies) assert.deepEqual(scanWireBody(geminiWireScanner, body).unknown, [], name);
    assert.deepEqual(usesOf(scanWireBody(geminiWireScanner, ordinaryBody)), ['tools tools[0].functionDeclarations']);
  });

  it('classifies every field the spec names, but cachedContent', () => {
    const at = (schema: string, wrap: (field: string) => Record<string, unknown>) => specFields(schema).flatMap((field) => scanWireBody(geminiWireScanner, wrap(field)).unknown);
    assert.deepEqual(at('GeminiGenerateContentRequest', (field) => ({ [field]: true })), ['cachedContent']);
    assert.deepEqual(at('GeminiCountTokensRequest', (field) => ({ [field]: true })), []);
    assert.deepEqual(at('GeminiGenerationConfig', (field) => ({ generationConfig: { [field]: true } })), []);
    assert.deepEqual(at('GeminiToolConfig', (field) => ({ toolConfig: { [field]: true } })), []);
    assert.deepEqual(at('GeminiTool', (field) => ({ tools: [{ [field]: true }] })), []);
    assert.deepEqual(at('GeminiContent', (field) => ({ contents: [{ [field]: field === 'role' ? 'user' : true }] })), []);
    assert.deepEqual(at('GeminiPart', (field) => ({ contents: [{ parts: [{ [field]: true }] }] })), []);
  });

  it("asks for tools for every one of Google's tools, in either spelling", () => {
    const kinds = ['googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext', 'computerUse', 'fileSearch', 'googleMaps', 'google_search', 'code_execution', 'url_context', 'function_declarations'];
    const body = scan({ tools: kinds.map((kind) => ({ [kind]: {} })) });
    assert.deepEqual(usesOf(body), kinds.map((kind, index) => `tools tools[${index}].${kind}`).sort());
    assert.deepEqual(body.unknown, []);
  });

  it('asks for reasoning for thought summaries, and image_generation for image output', () => {
    assert.deepEqual(usesOf(scan({ generationConfig: { thinkingConfig: { includeThoughts: true } } })), ['reasoning generationConfig.thinkingConfig.includeThoughts']);
    assert.deepEqual(usesOf(scan({ generationConfig: { thinkingConfig: { includeThoughts: false } } })), []);
    assert.deepEqual(usesOf(scan({ generationConfig: { thinkingConfig: { thinkingLevel: 'low' } } })), ['reasoning generationConfig.thinkingConfig.thinkingLevel']);
    assert.deepEqual(usesOf(scan({ generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } })), ['image_generation generationConfig.responseModalities']);
    assert.deepEqual(usesOf(scan({ generationConfig: { responseModalities: ['image'] } })), ['image_generation generationConfig.responseModalities'], 'any case');
    assert.deepEqual(usesOf(scan({ generationConfig: { responseModalities: [2] } })), ['image_generation generationConfig.responseModalities'], 'a proto enum number');
  });

  it('reads the snake_case spellings at every level, and reports them as written', () => {
    const body = scan({
      contents: [
        { role: 'user', parts: [{ inline_data: inlineImage }, { file_data: { mime_type: 'application/pdf', file_uri: 'gs://b/a.pdf' } }] },
        { role: 'user', parts: [{ function_response: { name: 'f', response: {}, parts: [{ inline_data: inlineImage }] } }] },
      ],
      system_instruction: { parts: [{ text: 'x' }] },
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['f'] } },
      generation_config: {
        max_output_tokens: 100,
        response_mime_type: 'application/json',
        response_json_schema: { type: 'object' },
        response_modalities: ['IMAGE'],
        thinking_config: { thinking_budget: 512, include_thoughts: true },
      },
    });
    assert.deepEqual(usesOf(body), [
      'image_generation generation_config.response_modalities',
      'json_schema generation_config.response_json_schema',
      'reasoning generation_config.thinking_config.include_thoughts',
      'reasoning generation_config.thinking_config.thinking_budget',
      'tools tool_config.function_calling_config.mode',
      'vision contents[0].parts[0].inline_data',
      'vision contents[0].parts[1].file_data',
      'vision contents[1].parts[0].function_response.parts[0].inline_data',
    ]);
    assert.deepEqual(body.unknown, []);
    assert.deepEqual(body.outputTokens, [
      { param: 'generation_config.max_output_tokens', value: 100, kind: 'max_output' },
      { param: 'generation_config.thinking_config.thinking_budget', value: 512, kind: 'reasoning_budget' },
    ]);
  });

  it('asks for vision for media in the system instruction and in function responses, and tools for code execution parts', () => {
    const body = scan({
      systemInstruction: { parts: [{ inlineData: inlineImage }] },
      contents: [
        { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'shot', response: {}, parts: [{ inlineData: inlineImage }] } }] },
      ],
    });
    assert.deepEqual(usesOf(body), [
      'tools contents[0].parts[0].executableCode',
      'tools contents[0].parts[1].codeExecutionResult',
      'vision contents[1].parts[0].functionResponse.parts[0].inlineData',
      'vision systemInstruction.parts[0].inlineData',
    ]);
  });

  it('reads a countTokens generateContentRequest like a generateContent body', () => {
    const body = scanWireBody(geminiWireScanner, { generateContentRequest: { model: 'models/gemini', contents, tools: [{ googleSearch: {} }], cachedContent: 'cachedContents/1' } });
    assert.deepEqual(usesOf(body), ['tools generateContentRequest.tools[0].googleSearch']);
    assert.deepEqual(body.unknown, ['generateContentRequest.cachedContent']);
  });

  it('calls unknown cached content, speech and audio output, and fields, parts, tools and roles it does not know', () => {
    const body = scan({
      cachedContent: 'cachedContents/1',
      generationConfig: { speechConfig: { voiceConfig: {} }, responseModalities: ['AUDIO'], thinkingConfig: { thinkingDepth: 3 } },
      contents: [{ role: 'system', parts: [{ hologram: {} }] }],
      tools: [{ teleport: {} }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO', strictness: 1 } },
      brand_new_field: 1,
    });
    assert.deepEqual(body.unknown, [
      'contents[0].role',
      'contents[0].parts[0].hologram',
      'cachedContent',
      'generationConfig.speechConfig',
      'generationConfig.responseModalities',
      'generationConfig.thinkingConfig.thinkingDepth',
      'tools[0].teleport',
      'toolConfig.functionCallingConfig.strictness',
      'brand_new_field',
    ]);
    assert.ok(usesOf(body).includes('tools tools[0].teleport'), 'an unknown tool is still a tool');
  });

  it('reports output tokens as numbers only', () => {
    assert.deepEqual(scan({ generationConfig: { maxOutputTokens: '9000', thinkingConfig: { thinkingBudget: -1 } } }).outputTokens, [
      { param: 'generationConfig.thinkingConfig.thinkingBudget', value: -1, kind: 'reasoning_budget' },
    ]);
  });

  it('never throws, whatever the body', () => {
    const keys = [...Object.keys(ordinaryBody), ...Object.keys(ordinaryBody.generationConfig), 'parts', 'role', 'inline_data', 'functionResponse', 'thinkingConfig', 'generateContentRequest', '__proto__'];
    for (const body of junkBodies(ordinaryBody, keys, 2000)) assert.doesNotThrow(() => scanWireBody(geminiWireScanner, body), JSON.stringify(body));
  });
});
