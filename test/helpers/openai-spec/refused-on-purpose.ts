// What the gateway refuses although OpenAI's published request schemas allow it: limits OpenAI states in
// words but not in its schema, and the few things the gateway does not serve. The request generator
// (published-requests.ts) keeps to each entry, so test/accepts-published-requests.test.ts requires
// everything else; that test also sends each entry's `refused` example and requires a 400 for it, so an
// entry the gateway no longer needs (its contract was loosened) fails there until it is removed.
import type { OperationId } from '../../../generated/operations.js';

type Schema = Record<string, unknown>;

export interface RefusedOnPurpose {
  /** JSON pointer into OpenAI's document to the schema that values are kept inside. */
  schema: string;
  /** Merged into that schema: the values the gateway takes. */
  narrowTo: Schema;
  /** Why the gateway refuses the rest: OpenAI's own words, or what the gateway does not serve. */
  why: string;
  /** A request the gateway refuses for this reason: fields merged into a minimal valid body of `operation`. */
  refused: { operation: OperationId; fields: Record<string, unknown> };
}

export const refusedOnPurpose: readonly RefusedOnPurpose[] = [
  {
    schema: '/components/schemas/CreateChatCompletionRequest/allOf/1/properties/n',
    narrowTo: { maximum: 1 },
    why: 'The gateway answers with one choice (its contract: "Only 1 is supported"); no upstream it translates to makes several.',
    refused: { operation: 'createChatCompletion', fields: { n: 2 } },
  },
  {
    schema: '/components/schemas/CreateChatCompletionRequest/allOf/1/properties/max_completion_tokens',
    narrowTo: { minimum: 1 },
    why: 'An upper bound on generated tokens below 1 is refused by OpenAI ("integer below minimum value"); the schema gives no minimum.',
    refused: { operation: 'createChatCompletion', fields: { max_completion_tokens: 0 } },
  },
  {
    schema: '/components/schemas/CreateChatCompletionRequest/allOf/1/properties/max_tokens',
    narrowTo: { minimum: 1 },
    why: 'As max_completion_tokens, of which it is the deprecated spelling.',
    refused: { operation: 'createChatCompletion', fields: { max_tokens: -1 } },
  },
  {
    schema: '/components/schemas/FunctionObject/properties/name',
    narrowTo: { pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    why: 'OpenAI\'s description: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."',
    refused: { operation: 'createChatCompletion', fields: { tools: [{ type: 'function', function: { name: 'no spaces' } }] } },
  },
  {
    schema: '/components/schemas/TextResponseFormatJsonSchema/properties/name',
    narrowTo: { pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    why: 'OpenAI\'s description: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."',
    refused: { operation: 'createResponse', fields: { text: { format: { type: 'json_schema', name: 'no spaces', schema: {} } } } },
  },
  {
    schema: '/components/schemas/FunctionCallOutputItemParam',
    narrowTo: { required: ['type', 'call_id', 'output'] },
    why: "A function call's output is matched to its call by `call_id`: one without it answers no call, and no upstream the gateway translates to can place it. (OpenAI's schema leaves `call_id` optional.)",
    refused: { operation: 'createResponse', fields: { input: [{ type: 'function_call_output', output: '42' }] } },
  },
  {
    schema: '/components/schemas/FunctionCallOutputItemParam/properties/call_id',
    narrowTo: { anyOf: [{ type: 'string', minLength: 1, maxLength: 64 }] },
    why: 'As above: `call_id: null` names no call either.',
    refused: { operation: 'createResponse', fields: { input: [{ type: 'function_call_output', call_id: null, output: '42' }] } },
  },
  {
    schema: '/components/schemas/FunctionTool/properties/name',
    narrowTo: { pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    why: "The rule OpenAI states for a function's name on Chat (FunctionObject); its Responses schema leaves it out, but names reach the same models there, and the gateway gives them to upstreams that require it (Anthropic's tool names).",
    refused: { operation: 'createResponse', fields: { tools: [{ type: 'function', name: '' }] } },
  },
  {
    schema: '/components/schemas/CustomToolParam/properties/name',
    narrowTo: { pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    why: 'As for function tools: a custom tool is offered to other upstreams as a function of that name.',
    refused: { operation: 'createResponse', fields: { tools: [{ type: 'custom', name: 'no spaces' }] } },
  },
  {
    schema: '/components/schemas/NamespaceToolParam/properties/name',
    narrowTo: { pattern: '^[a-zA-Z0-9_-]+$' },
    why: 'A namespace prefixes its tools\' names for other upstreams (`<namespace>__<name>`), so it keeps to the same characters.',
    refused: { operation: 'createResponse', fields: { tools: [{ type: 'namespace', name: 'no spaces', tools: [{ type: 'function', name: 'f' }] }] } },
  },
  {
    schema: '/components/schemas/CreateChatCompletionRequest/allOf/1/properties/tools/items',
    narrowTo: { oneOf: [{ $ref: '#/components/schemas/ChatCompletionTool' }] },
    why: "Chat's custom tools (free-form input) are not served yet: the gateway serves custom tools on Responses, where they work on every upstream.",
    refused: { operation: 'createChatCompletion', fields: { tools: [{ type: 'custom', custom: { name: 'apply_patch' } }] } },
  },
  {
    schema: '/components/schemas/ChatCompletionMessageToolCalls/items',
    narrowTo: { oneOf: [{ $ref: '#/components/schemas/ChatCompletionMessageToolCall' }] },
    why: 'Calls of Chat custom tools, which the gateway does not serve yet (above), so no answer of it has one to send back.',
    refused: {
      operation: 'createChatCompletion',
      fields: { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: 'x' } }] }] },
    },
  },
  {
    schema: '/components/schemas/ChatCompletionToolChoiceOption',
    narrowTo: { oneOf: [{ type: 'string', enum: ['none', 'auto', 'required'] }, { $ref: '#/components/schemas/ChatCompletionNamedToolChoice' }] },
    why: "Chat's `allowed_tools` mode and a named custom tool are not served yet (Responses takes a custom tool by name).",
    refused: { operation: 'createChatCompletion', fields: { tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } } },
  },
  {
    schema: '/components/schemas/CreateEmbeddingRequest/properties/input/oneOf/0',
    narrowTo: { minLength: 1 },
    why: 'OpenAI\'s description: the input "cannot be an empty string".',
    refused: { operation: 'createEmbedding', fields: { input: '' } },
  },
  {
    schema: '/components/schemas/CreateEmbeddingRequest/properties/input/oneOf/1/items',
    narrowTo: { minLength: 1 },
    why: 'As above, for each string of a list.',
    refused: { operation: 'createEmbedding', fields: { input: ['a', ''] } },
  },
  {
    schema: '/components/schemas/CreateImageRequest/properties/output_compression',
    narrowTo: { minimum: 0, maximum: 100 },
    why: 'OpenAI\'s description: "The compression level (0-100%)".',
    refused: { operation: 'createImage', fields: { output_compression: 101 } },
  },
  {
    schema: '/components/schemas/CreateImageEditRequest/properties/output_compression',
    narrowTo: { minimum: 0, maximum: 100 },
    why: 'As for generations.',
    refused: { operation: 'createImageEdit', fields: { output_compression: 101 } },
  },
  {
    schema: '/components/schemas/CreateImageRequest/properties/size',
    narrowTo: { pattern: '^(auto|[0-9]+x[0-9]+)$' },
    why: 'OpenAI\'s description: one of the listed sizes, or "arbitrary resolutions ... as `WIDTHxHEIGHT` strings"; the schema\'s open `anyOf` with `string` is its SDKs\' room for sizes added later.',
    refused: { operation: 'createImage', fields: { size: 'big' } },
  },
  {
    schema: '/components/schemas/CreateImageEditRequest/properties/size',
    narrowTo: { pattern: '^(auto|[0-9]+x[0-9]+)$' },
    why: 'As for generations.',
    refused: { operation: 'createImageEdit', fields: { size: 'big' } },
  },
  {
    schema: '/components/schemas/CreateImageRequest/properties/prompt',
    narrowTo: { minLength: 1 },
    why: 'An empty prompt describes no image: the gateway refuses it rather than inventing one.',
    refused: { operation: 'createImage', fields: { prompt: '' } },
  },
  {
    schema: '/components/schemas/CreateImageEditRequest/properties/prompt',
    narrowTo: { minLength: 1 },
    why: 'As for generations.',
    refused: { operation: 'createImageEdit', fields: { prompt: '' } },
  },
  {
    schema: '/components/schemas/CreateFileRequest/properties/purpose',
    narrowTo: { enum: ['assistants', 'batch', 'fine-tune', 'vision', 'user_data'] },
    why: "OpenAI's own file object (`OpenAIFile.purpose`) has no `evals` to answer with, so a file uploaded so could not be described in OpenAI's shape; the gateway runs no evals.",
    refused: { operation: 'createFile', fields: { purpose: 'evals' } },
  },
  {
    schema: '/components/schemas/CreateBatchRequest/properties/endpoint',
    narrowTo: { enum: ['/v1/chat/completions', '/v1/responses', '/v1/embeddings'] },
    why: 'The gateway runs batches of the endpoints it serves; OpenAI\'s completions, moderations, images and videos batches have no endpoint here to run their lines on.',
    refused: { operation: 'createBatch', fields: { endpoint: '/v1/completions' } },
  },
];
