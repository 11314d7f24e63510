import type { ModelCapability } from '../config/config-schema.js';
import type { ModelRequest } from '../core/types.js';
import { GatewayError } from '../http/gateway-error.js';
import type { Permissions } from './access-types.js';
import { matchesModelPattern } from './model-pattern.js';

/** Request field names in the client's protocol, so a refusal names what the client sent. */
export interface RequestParamNames {
  tools: string;
  json_schema: string;
  reasoning: string;
  images: string;
  maxOutputTokens: string;
}

/**
 * What a key may use: its account's permissions and its own, both of which must allow a thing. Every
 * surface asks the same questions of it (see ModelRegistry.resolve, Router.run and the handlers), so a
 * model or capability forbidden on one path is forbidden on all of them.
 */
export class AccessPolicy {
  private readonly layers: Permissions[];

  constructor(...layers: Permissions[]) {
    this.layers = layers;
  }

  /** A policy that allows everything (internal calls, tests of other things). */
  static readonly unrestricted = new AccessPolicy();

  permitsModel(modelId: string): boolean {
    return this.layers.every((layer) => !layer.models || layer.models.some((pattern) => matchesModelPattern(pattern, modelId)));
  }

  permitsCapability(capability: ModelCapability): boolean {
    return this.layers.every((layer) => !layer.capabilities || layer.capabilities.includes(capability));
  }

  /**
   * Whether a model with these capabilities is any use to the caller. Chatting is governed by the model
   * list alone (see assertModelRequest), so a chat model always is; an image model needs one of its image
   * capabilities allowed.
   */
  permitsSomeUse(capabilities: readonly ModelCapability[]): boolean {
    if (capabilities.includes('chat')) return true;
    return capabilities.some((capability) => (capability === 'image_generation' || capability === 'image_edit') && this.permitsCapability(capability));
  }

  /** 403 unless the model is allowed; callers check that it exists first (404 beats 403). */
  assertModel(modelId: string): void {
    if (!this.permitsModel(modelId)) {
      throw new GatewayError('permission', `This API key may not use the model '${modelId}'.`, { param: 'model', code: 'model_not_permitted' });
    }
  }

  assertCapability(capability: ModelCapability, param: string): void {
    if (!this.permitsCapability(capability)) {
      throw new GatewayError('permission', `This API key may not use ${capability} (asked for by '${param}').`, { param, code: 'capability_not_permitted' });
    }
  }

  /**
   * The capabilities a model request uses, and its output-token ceiling, against the permissions. Chat
   * and streaming are what every model request is, so they are governed by the model list, not here.
   */
  assertModelRequest(request: ModelRequest, options: { params: RequestParamNames }): void {
    const { params } = options;
    if (request.tools.length > 0) this.assertCapability('tools', params.tools);
    if (request.messages.some((message) => message.content.some((part) => part.type === 'image'))) this.assertCapability('vision', params.images);
    if (request.responseFormat.type === 'json_schema') this.assertCapability('json_schema', params.json_schema);
    if (request.reasoning) this.assertCapability('reasoning', params.reasoning);
    if (request.maxOutputTokens !== undefined) this.assertAtMost('max_output_tokens', request.maxOutputTokens, params.maxOutputTokens);
  }

  /** An image request: its capability, `n` and `size`. */
  assertImageRequest(capability: 'image_generation' | 'image_edit', options: { n: number; size?: string }): void {
    this.assertCapability(capability, 'model');
    this.assertAtMost('max_images', options.n, 'n');
    if (options.size !== undefined) {
      for (const layer of this.layers) {
        if (layer.image_sizes && !layer.image_sizes.includes(options.size)) {
          throw new GatewayError('permission', `This API key may not ask for size '${options.size}'; it may use: ${layer.image_sizes.join(', ')}.`, {
            param: 'size',
            code: 'parameter_not_permitted',
          });
        }
      }
    }
  }

  private assertAtMost(limit: 'max_output_tokens' | 'max_images', value: number, param: string): void {
    for (const layer of this.layers) {
      const ceiling = layer[limit];
      if (ceiling !== undefined && value > ceiling) {
        throw new GatewayError('permission', `'${param}' is ${value}; this API key may ask for at most ${ceiling}.`, { param, code: 'parameter_not_permitted' });
      }
    }
  }
}
