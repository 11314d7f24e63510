import type { RegisteredModel } from '../../core/model-registry.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/**
 * OpenAI's hosted tools (web_search, file_search, code_interpreter, image_generation, computer use, mcp,
 * local_shell, …) run inside OpenAI's Responses API. An `api: responses` upstream gets them as they are;
 * any other upstream cannot run them, so they are dropped and named, or refused when the model says
 * `on_unsupported: reject`.
 */

/** A hosted tool of the request: `param` is where it sits, `label` how the dropped-params header names it. */
export interface HostedTool {
  param: string;
  type: string;
  label: string;
  name?: string;
}

/** The request's hosted tools (web_search, mcp, …), which only an `api: responses` upstream can run. */
export function hostedToolsOf(tools: ResponsesCreateRequest['tools']): HostedTool[] {
  return (tools ?? []).flatMap((tool, index) => {
    if (tool.type === 'function' || tool.type === 'custom' || tool.type === 'namespace') return [];
    const name = typeof tool.name === 'string' ? tool.name : typeof tool.server_label === 'string' ? tool.server_label : undefined;
    return [{ param: `tools[${index}]`, type: tool.type, label: `tools[${index}]:${tool.type}`, ...(name ? { name } : {}) }];
  });
}

/** Refuses hosted tools for a model that rejects what it cannot do; else names them for `x-gateway-dropped-params`. */
export function droppedHostedTools(model: Pick<RegisteredModel, 'id' | 'onUnsupported'>, hosted: readonly HostedTool[]): string[] {
  const [first] = hosted;
  if (first && model.onUnsupported === 'reject') {
    const named = first.name ? ` '${first.name}'` : '';
    throw new GatewayError(
      'invalid_request',
      `The hosted tool${named} of type '${first.type}' (${first.param}) runs only on OpenAI's Responses API, and model '${model.id}' is not served by one. Remove the tool, or use a model served by an 'api: responses' upstream.`,
      { param: `${first.param}.type` },
    );
  }
  return hosted.map((tool) => tool.label);
}
