import type { components } from '../../../index.js';

type Model = components['schemas']['Model'];

/** One protocol's example: a curl command and the same call with that protocol's JavaScript SDK. */
export interface ExampleRequest {
  protocol: string;
  curl: string;
  javascript: string;
  /** The SDK package the JavaScript needs. */
  sdk: string;
}

const prompt = 'Hello!';
const imagePrompt = 'A lighthouse on a cliff at dusk';
const editPrompt = 'Make it sepia';

/**
 * Example requests for every protocol the model answers, with `origin` as base URL and the key as the
 * `$GATEWAY_API_KEY` placeholder (never the signed-in key: snippets get pasted into tickets and chats).
 * Chat models answer all four chat protocols; image models the OpenAI image endpoints they support.
 */
export function exampleRequests(model: Model, origin: string): ExampleRequest[] {
  const examples: ExampleRequest[] = [];
  if (model.capabilities.includes('chat')) {
    examples.push(chatCompletions(model.id, origin), responses(model.id, origin), anthropicMessages(model.id, origin), geminiGenerateContent(model.id, origin));
  }
  if (model.capabilities.includes('image_generation')) examples.push(imageGeneration(model, origin));
  if (model.capabilities.includes('image_edit')) examples.push(imageEdit(model, origin));
  return examples;
}

function chatCompletions(model: string, origin: string): ExampleRequest {
  return {
    protocol: 'OpenAI Chat Completions',
    sdk: 'openai',
    curl: curl(`${origin}/v1/chat/completions`, bearer, { model, messages: [{ role: 'user', content: prompt }] }),
    javascript: `import OpenAI from 'openai';

${openAiClient(origin)}
const completion = await client.chat.completions.create({
  model: ${js(model)},
  messages: [{ role: 'user', content: ${js(prompt)} }],
});
console.log(completion.choices[0].message.content);`,
  };
}

function responses(model: string, origin: string): ExampleRequest {
  return {
    protocol: 'OpenAI Responses',
    sdk: 'openai',
    curl: curl(`${origin}/v1/responses`, bearer, { model, input: prompt }),
    javascript: `import OpenAI from 'openai';

${openAiClient(origin)}
const response = await client.responses.create({
  model: ${js(model)},
  input: ${js(prompt)},
});
console.log(response.output_text);`,
  };
}

function anthropicMessages(model: string, origin: string): ExampleRequest {
  return {
    protocol: 'Anthropic Messages',
    sdk: '@anthropic-ai/sdk',
    curl: curl(`${origin}/v1/messages`, ['x-api-key: $GATEWAY_API_KEY', 'anthropic-version: 2023-06-01'], {
      model,
      max_tokens: 1024,
      messages: [{ role: 'user', content: prompt }],
    }),
    // The Anthropic SDK takes the origin without `/v1`: it adds `/v1/messages` itself.
    javascript: `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({
  baseURL: ${js(origin)},
  apiKey: process.env.GATEWAY_API_KEY,
});
const message = await client.messages.create({
  model: ${js(model)},
  max_tokens: 1024,
  messages: [{ role: 'user', content: ${js(prompt)} }],
});
console.log(message.content[0].text);`,
  };
}

function geminiGenerateContent(model: string, origin: string): ExampleRequest {
  return {
    protocol: 'Gemini generateContent',
    sdk: '@google/genai',
    // Model IDs with `/` go into the path as they are; the gateway's route allows it.
    curl: curl(`${origin}/v1beta/models/${model}:generateContent`, ['x-goog-api-key: $GATEWAY_API_KEY'], {
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
    }),
    javascript: `import { GoogleGenAI } from '@google/genai';

const ai = new GoogleGenAI({
  apiKey: process.env.GATEWAY_API_KEY,
  httpOptions: { baseUrl: ${js(origin)} },
});
const response = await ai.models.generateContent({
  model: ${js(model)},
  contents: ${js(prompt)},
});
console.log(response.text);`,
  };
}

function imageGeneration(model: Model, origin: string): ExampleRequest {
  const size = exampleSize(model);
  const base64 = acceptsBase64(model);
  const body = { model: model.id, prompt: imagePrompt, size, n: 1, ...(base64 ? { response_format: 'b64_json' } : {}) };
  return {
    protocol: 'OpenAI Images: generations',
    sdk: 'openai',
    curl: curl(`${origin}/v1/images/generations`, bearer, body),
    javascript: `import OpenAI from 'openai';
${base64 ? "import { writeFile } from 'node:fs/promises';\n" : ''}
${openAiClient(origin)}
const result = await client.images.generate({
  model: ${js(model.id)},
  prompt: ${js(imagePrompt)},
  size: ${js(size)},
  n: 1,${base64 ? "\n  response_format: 'b64_json'," : ''}
});
${base64 ? "await writeFile('image.png', Buffer.from(result.data[0].b64_json, 'base64'));" : 'console.log(result.data[0].url);'}`,
  };
}

function imageEdit(model: Model, origin: string): ExampleRequest {
  const base64 = acceptsBase64(model);
  const fields = [`model=${model.id}`, 'image=@input.png', `prompt=${editPrompt}`, ...(base64 ? ['response_format=b64_json'] : [])];
  return {
    protocol: 'OpenAI Images: edits',
    sdk: 'openai',
    curl: [`curl ${origin}/v1/images/edits`, `-H "Authorization: Bearer $GATEWAY_API_KEY"`, ...fields.map((field) => `-F ${shellQuote(field)}`)].join(' \\\n  '),
    javascript: `import OpenAI from 'openai';
import { createReadStream } from 'node:fs';${base64 ? "\nimport { writeFile } from 'node:fs/promises';" : ''}

${openAiClient(origin)}
const result = await client.images.edit({
  model: ${js(model.id)},
  image: createReadStream('input.png'),
  prompt: ${js(editPrompt)},${base64 ? "\n  response_format: 'b64_json'," : ''}
});
${base64 ? "await writeFile('edited.png', Buffer.from(result.data[0].b64_json, 'base64'));" : 'console.log(result.data[0].url);'}`,
  };
}

const bearer = ['Authorization: Bearer $GATEWAY_API_KEY'];

function openAiClient(origin: string): string {
  return `const client = new OpenAI({
  baseURL: ${js(`${origin}/v1`)},
  apiKey: process.env.GATEWAY_API_KEY,
});`;
}

function curl(url: string, headers: string[], body: unknown): string {
  // Double quotes around headers so the shell expands $GATEWAY_API_KEY; single quotes around the body.
  const lines = [`curl ${shellQuote(url)}`, ...headers.map((header) => `-H "${header}"`), `-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body, null, 2))}`];
  return lines.join(' \\\n  ');
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function js(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function exampleSize(model: Model): string {
  const sizes = model.images?.sizes;
  // A model without a size list takes any WIDTHxHEIGHT.
  if (!sizes) return '1024x1024';
  return sizes.includes('1024x1024') ? '1024x1024' : (sizes.find((size) => size !== 'auto') ?? 'auto');
}

function acceptsBase64(model: Model): boolean {
  return model.images?.response_formats.includes('b64_json') ?? true;
}
