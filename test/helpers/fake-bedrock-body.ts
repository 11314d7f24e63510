/**
 * The Converse request checks the fake Bedrock applies, from the API reference
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_RequestSyntax,
 * API_runtime_ContentBlock.html, API_runtime_ToolConfiguration.html, API_runtime_InferenceConfiguration.html).
 * Returns the ValidationException message for the first problem, or undefined when the body is valid.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const topLevel = new Set([
  'messages', 'system', 'inferenceConfig', 'toolConfig', 'guardrailConfig', 'additionalModelRequestFields',
  'additionalModelResponseFieldPaths', 'promptVariables', 'requestMetadata', 'performanceConfig',
]);
const blockKinds = new Set(['text', 'image', 'document', 'video', 'toolUse', 'toolResult', 'guardContent', 'reasoningContent', 'cachePoint', 'citationsContent']);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isBase64 = (value: unknown) => typeof value === 'string' && value.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);

export function validateConverseBody(body: unknown): string | undefined {
  if (!isObject(body)) return 'The request body must be a JSON object.';
  const unknown = Object.keys(body).find((key) => !topLevel.has(key));
  if (unknown) return `Unknown field '${unknown}' in the request.`;
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  let usesTools = false;
  for (const [m, message] of (body.messages as unknown[]).entries()) {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) return `messages.${m}.role must be user or assistant.`;
    if (m === 0 && message.role !== 'user') return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
    if (m > 0 && (body.messages[m - 1] as Json).role === message.role) return 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
    if (!Array.isArray(message.content) || message.content.length === 0) return `messages.${m}.content must have at least one content block.`;
    for (const [c, block] of (message.content as unknown[]).entries()) {
      const problem = blockProblem(block, `messages.${m}.content.${c}`, message.role);
      if (problem) return problem;
      if (isObject(block) && ('toolUse' in block || 'toolResult' in block)) usesTools = true;
    }
  }
  if (body.system !== undefined) {
    if (!Array.isArray(body.system)) return 'system must be a list of system content blocks.';
    for (const [s, block] of (body.system as unknown[]).entries()) {
      if (!isObject(block) || Object.keys(block).length !== 1) return `system.${s} must have exactly one member.`;
      if ('text' in block && (typeof block.text !== 'string' || block.text.trim() === '')) return `The text field in the SystemContentBlock object at system.${s} is blank. Add text to the text field, and try again.`;
      if (!('text' in block) && !('cachePoint' in block) && !('guardContent' in block)) return `system.${s} has an unknown member.`;
    }
  }
  const inference = body.inferenceConfig;
  if (inference !== undefined) {
    if (!isObject(inference)) return 'inferenceConfig must be an object.';
    const extra = Object.keys(inference).find((key) => !['maxTokens', 'temperature', 'topP', 'stopSequences'].includes(key));
    if (extra) return `Unknown field '${extra}' in inferenceConfig.`;
    if (inference.maxTokens !== undefined && (!Number.isInteger(inference.maxTokens) || inference.maxTokens < 1)) return 'inferenceConfig.maxTokens must be an integer of at least 1.';
    for (const key of ['temperature', 'topP']) {
      if (inference[key] !== undefined && (typeof inference[key] !== 'number' || inference[key] < 0 || inference[key] > 1)) return `inferenceConfig.${key} must be between 0 and 1.`;
    }
    if (inference.stopSequences !== undefined && (!Array.isArray(inference.stopSequences) || inference.stopSequences.some((s: unknown) => typeof s !== 'string'))) {
      return 'inferenceConfig.stopSequences must be a list of strings.';
    }
  }
  if (body.toolConfig !== undefined) {
    const problem = toolConfigProblem(body.toolConfig);
    if (problem) return problem;
  } else if (usesTools) {
    return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  }
  return undefined;
}

function blockProblem(block: unknown, at: string, role: string): string | undefined {
  if (!isObject(block) || Object.keys(block).length !== 1 || !blockKinds.has(Object.keys(block)[0]!)) return `${at} must have exactly one known member.`;
  if ('text' in block && (typeof block.text !== 'string' || block.text.trim() === '')) return `The text field in the ContentBlock object at ${at} is blank. Add text to the text field, and try again.`;
  if ('image' in block) return imageProblem(block.image, at);
  if ('document' in block) {
    const document = block.document;
    if (!isObject(document) || typeof document.name !== 'string' || !/^[A-Za-z0-9\s\-()[\]]+$/.test(document.name)) return `${at}.document.name is not a valid document name.`;
    if (!['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md'].includes(document.format) || !isBase64(document.source?.bytes)) return `${at}.document needs a format and source.bytes.`;
  }
  if ('toolUse' in block) {
    const use = block.toolUse;
    if (role !== 'assistant') return `${at}: toolUse blocks belong in assistant messages.`;
    if (!isObject(use) || typeof use.toolUseId !== 'string' || typeof use.name !== 'string' || !isObject(use.input)) return `${at}.toolUse needs toolUseId, name and an input object.`;
  }
  if ('toolResult' in block) {
    const result = block.toolResult;
    if (role !== 'user') return `${at}: toolResult blocks belong in user messages.`;
    if (!isObject(result) || typeof result.toolUseId !== 'string' || !Array.isArray(result.content)) return `${at}.toolResult needs toolUseId and content.`;
    if (result.status !== undefined && result.status !== 'success' && result.status !== 'error') return `${at}.toolResult.status must be success or error.`;
    for (const [r, item] of (result.content as unknown[]).entries()) {
      if (!isObject(item) || Object.keys(item).length !== 1 || !['text', 'image', 'json', 'document', 'video'].includes(Object.keys(item)[0]!)) return `${at}.toolResult.content.${r} must have exactly one known member.`;
      if ('image' in item) return imageProblem(item.image, `${at}.toolResult.content.${r}`);
    }
  }
  if ('reasoningContent' in block && role !== 'assistant') return `${at}: reasoningContent blocks belong in assistant messages.`;
  return undefined;
}

function imageProblem(image: unknown, at: string): string | undefined {
  if (!isObject(image) || !['png', 'jpeg', 'gif', 'webp'].includes(image.format)) return `${at}.image.format must be png, jpeg, gif or webp.`;
  if (!isObject(image.source) || !isBase64(image.source.bytes)) return `${at}.image.source.bytes must be base64-encoded bytes.`;
  return undefined;
}

function toolConfigProblem(config: unknown): string | undefined {
  if (!isObject(config) || !Array.isArray(config.tools) || config.tools.length === 0) return 'toolConfig.tools must have at least one tool.';
  for (const [t, tool] of (config.tools as unknown[]).entries()) {
    if (isObject(tool) && 'cachePoint' in tool) continue;
    const spec = isObject(tool) ? tool.toolSpec : undefined;
    if (!isObject(spec) || typeof spec.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) return `toolConfig.tools.${t}.toolSpec.name is not a valid tool name.`;
    if (!isObject(spec.inputSchema) || !isObject(spec.inputSchema.json)) return `toolConfig.tools.${t}.toolSpec.inputSchema.json must be a JSON schema object.`;
  }
  const choice = config.toolChoice;
  if (choice !== undefined) {
    if (!isObject(choice) || Object.keys(choice).length !== 1) return 'toolConfig.toolChoice must have exactly one of auto, any, tool.';
    if (!('auto' in choice) && !('any' in choice) && !(isObject(choice.tool) && typeof choice.tool.name === 'string')) return 'toolConfig.toolChoice must have exactly one of auto, any, tool.';
  }
  return undefined;
}
