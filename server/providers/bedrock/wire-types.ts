/**
 * The Converse API's wire shapes, as far as the gateway uses them
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
 */

export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

export type BedrockImageBlock = { image: { format: BedrockImageFormat; source: { bytes: string } } };
export type BedrockDocumentBlock = { document: { format: BedrockDocumentFormat; name: string; source: { bytes: string } } };
export type BedrockCachePoint = { cachePoint: { type: 'default' } };

export type BedrockToolResultContent = { text: string } | BedrockImageBlock | BedrockDocumentBlock;

export type BedrockContentBlock =
  | { text: string }
  | BedrockImageBlock
  | BedrockDocumentBlock
  | BedrockCachePoint
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' } }
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string } };

export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

export type BedrockToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

export interface BedrockConverseRequest {
  messages: BedrockMessage[];
  system?: Array<{ text: string } | BedrockCachePoint>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: {
    tools: Array<{ toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } } }>;
    toolChoice?: BedrockToolChoice;
  };
  additionalModelRequestFields?: Record<string, unknown>;
}
