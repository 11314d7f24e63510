/**
 * The GenAI attribute names the gateway records
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/). They are still "incubating" in
 * @opentelemetry/semantic-conventions (its `/incubating` entry point, which the package advises copying
 * from rather than importing, as names there may change), hence spelt out here once.
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputMessages: 'gen_ai.input.messages',
  systemInstructions: 'gen_ai.system_instructions',
  outputMessages: 'gen_ai.output.messages',
} as const;
