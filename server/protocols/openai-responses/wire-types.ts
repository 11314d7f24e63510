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
/**
 * Request side: a call or reasoning item sent back as input, where `id` may be missing. Output items
 * (`Schemas['ResponsesFunctionCall']`, `Schemas['ResponsesReasoning']`) always carry it.
 */
export type ResponsesFunctionCall = Schemas['ResponsesEchoedFunctionCall'];
export type ResponsesReasoning = Schemas['ResponsesEchoedReasoning'];
