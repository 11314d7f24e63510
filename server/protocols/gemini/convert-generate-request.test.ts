import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../core/gateway-error.js';
import { convertGenerateRequest } from './convert-generate-request.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

const hello = [{ role: 'user', parts: [{ text: 'Hello' }] }];

describe('convertGenerateRequest', () => {
  it('maps the system instruction, tools, tool config and generation config', () => {
    const body: GeminiGenerateContentRequest = {
      contents: hello,
      systemInstruction: { role: 'user', parts: [{ text: 'Be terse.' }, { text: 'Answer in French.' }] },
      tools: [
        {
          functionDeclarations: [
            { name: 'weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } },
            { name: 'time', parametersJsonSchema: { type: 'object', properties: { tz: { type: 'string' } } } },
            { name: 'ping' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['time'] } },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 100,
        stopSequences: ['###'],
        seed: 7,
        candidateCount: 1,
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
      },
    };
    const { request, geminiOnly } = convertGenerateRequest(body, 'test-model');
    assert.deepEqual(geminiOnly, []);
    assert.deepEqual(request, {
      model: 'test-model',
      instructions: [{ text: 'Be terse.' }, { text: 'Answer in French.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      tools: [
        { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { name: 'time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
        { name: 'ping', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', name: 'time' },
      responseFormat: { type: 'text' },
      stopSequences: ['###'],
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      seed: 7,
      reasoning: { budgetTokens: 2048 },
    });
  });

  it('maps the calling modes', () => {
    const tools = [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }];
    const choose = (functionCallingConfig: object) => convertGenerateRequest({ contents: hello, tools, toolConfig: { functionCallingConfig } }, 'm').request;
    assert.deepEqual(choose({ mode: 'AUTO' }).toolChoice, { type: 'auto' });
    assert.deepEqual(choose({ mode: 'VALIDATED' }).toolChoice, { type: 'auto' });
    assert.deepEqual(choose({ mode: 'NONE' }).toolChoice, { type: 'none' });
    assert.deepEqual(choose({ mode: 'ANY' }).toolChoice, { type: 'required' });
    const several = choose({ mode: 'ANY', allowedFunctionNames: ['a', 'c'] });
    assert.deepEqual(several.toolChoice, { type: 'required' });
    assert.deepEqual(several.tools.map((tool) => tool.name), ['a', 'c']);
    assert.throws(() => choose({ mode: 'ANY', allowedFunctionNames: ['zzz'] }), (error: GatewayError) => error.status === 400);
  });

  it('maps structured output: responseJsonSchema, responseSchema, JSON mode', () => {
    const format = (generationConfig: object) => convertGenerateRequest({ contents: hello, generationConfig }, 'm').request.responseFormat;
    assert.deepEqual(format({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } }), { type: 'json_schema', name: 'response', schema: { type: 'object' } });
    assert.deepEqual(format({ responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', items: { type: 'STRING' } } }), {
      type: 'json_schema',
      name: 'response',
      schema: { type: 'array', items: { type: 'string' } },
    });
    assert.deepEqual(format({ responseMimeType: 'application/json' }), { type: 'json_object' });
    assert.deepEqual(format({ responseMimeType: 'text/plain' }), { type: 'text' });
  });

  it('maps thinking budgets and levels', () => {
    const reasoning = (thinkingConfig: object) => convertGenerateRequest({ contents: hello, generationConfig: { thinkingConfig } }, 'm').request.reasoning;
    assert.deepEqual(reasoning({ thinkingBudget: 0 }), { budgetTokens: 0 });
    assert.deepEqual(reasoning({ thinkingBudget: -1 }), { effort: 'medium' });
    assert.deepEqual(reasoning({ thinkingLevel: 'HIGH' }), { effort: 'high' });
    assert.deepEqual(reasoning({ thinkingLevel: 'low' }), { effort: 'low' });
    assert.equal(reasoning({ includeThoughts: true }), undefined);
  });

  it('lists what only a Gemini upstream can honour', () => {
    const { geminiOnly } = convertGenerateRequest(
      {
        contents: hello,
        cachedContent: 'cachedContents/abc',
        tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'f' }], codeExecution: {} }],
        generationConfig: { candidateCount: 2, responseMimeType: 'text/x.enum', responseModalities: ['TEXT', 'IMAGE'] },
      },
      'm',
    );
    assert.deepEqual(geminiOnly.sort(), [
      'cachedContent',
      'generationConfig.candidateCount',
      'generationConfig.responseMimeType',
      'generationConfig.responseModalities',
      'tools[0].googleSearch',
      'tools[1].codeExecution',
    ]);
  });
});
