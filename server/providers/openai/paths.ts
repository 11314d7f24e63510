/** The OpenAI API operations the gateway calls, as paths under OpenAI's base URL. */
export type OpenAIOperation = '/chat/completions' | '/responses' | '/responses/compact' | '/images/generations' | '/images/edits' | '/embeddings';

/**
 * Where one call goes, under the client's base URL. OpenAI and its imitations use the operation's path as
 * it is; Azure OpenAI puts the deployment (the call's upstream model) and an `api-version` query in it
 * (../azure-openai/azure-path.ts).
 */
export type OpenAIPath = (operation: OpenAIOperation, upstreamModel: string) => string;

export const openAIPath: OpenAIPath = (operation) => operation;
