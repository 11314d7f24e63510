import type { components } from '../../../generated/api.js';

/** OpenAI Responses wire types, straight from the spec. */
type Schemas = components['schemas'];

export type ResponsesCreateRequest = Schemas['ResponsesCreateRequest'];
export type ResponsesInputItem = Schemas['ResponsesInputItem'];
export type ResponsesInputMessage = Schemas['ResponsesInputMessage'];
export type ResponsesInputContent = Schemas['ResponsesInputContent'];
export type ResponsesFunctionCallOutput = Schemas['ResponsesFunctionCallOutput'];
export type ResponsesItemReference = Schemas['ResponsesItemReference'];
export type ResponsesFunctionTool = Schemas['ResponsesFunctionTool'];
export type ResponsesToolChoice = Schemas['ResponsesToolChoice'];
export type ResponsesTextFormat = Schemas['ResponsesTextFormat'];
export type ResponsesOutputItem = Schemas['ResponsesOutputItem'];
export type ResponsesOutputMessage = Schemas['ResponsesOutputMessage'];
export type ResponsesFunctionCall = Schemas['ResponsesFunctionCall'];
export type ResponsesReasoning = Schemas['ResponsesReasoning'];
