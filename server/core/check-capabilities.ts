import type { ModelCapability } from '../config/config-schema.js';
import { GatewayError } from '../http/gateway-error.js';
import type { RegisteredModel } from './model-registry.js';
import type { ModelRequest } from './types.js';

/**
 * Refuses a request that needs something the model cannot do, naming the parameter, rather than letting
 * the upstream fail obscurely or silently ignoring it.
 */
export function checkCapabilities(model: RegisteredModel, request: ModelRequest, options: { stream: boolean }): void {
  const need = (capability: ModelCapability, param: string, what: string) => {
    if (!model.capabilities.includes(capability)) {
      throw new GatewayError('invalid_request', `The model '${model.id}' does not support ${what}.`, {
        param,
        code: 'unsupported_parameter',
      });
    }
  };
  if (options.stream) need('streaming', 'stream', 'streaming');
  if (request.tools.length > 0) need('tools', 'tools', 'tools');
  if (request.responseFormat.type === 'json_schema') need('json_schema', 'response_format', 'structured output (json_schema)');
  const hasImage = request.messages.some((message) => message.content.some((part) => part.type === 'image'));
  if (hasImage) need('vision', 'messages', 'image input');
}
