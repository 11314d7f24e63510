import type { ModelCapability } from '../config/config-schema.js';
import type { ContentPart, ModelRequest } from '../core/internal-representation.js';
import { GatewayError } from '../core/gateway-error.js';
import type { CostOption, Permissions } from './access-types.js';
import { costOptionsOfBetas } from './priced-betas.js';
import { matchesModelPattern } from './model-pattern.js';
import { scanWireBody, type BroughtItem, type OutputTokenAsk, type WireScan, type WireScanner } from './wire-scan/wire-scan.js';

/** Request field names in the client's protocol, so a refusal names what the client sent. */
export interface RequestParamNames {
  tools: string;
  json_schema: string;
  reasoning: string;
  images: string;
  maxOutputTokens: string;
}

/** The capabilities that are a use of a model of their own, besides chatting. */
const nonChatUses = new Set<ModelCapability>(['image_generation', 'image_edit', 'embeddings']);

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
   * list alone (see assertModelRequest), so a chat model always is; an image or embedding model needs one
   * of those capabilities allowed.
   */
  permitsSomeUse(capabilities: readonly ModelCapability[]): boolean {
    if (capabilities.includes('chat')) return true;
    return capabilities.some((capability) => nonChatUses.has(capability) && this.permitsCapability(capability));
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
   * Whether the permissions limit what a request body may ask for (`capabilities`, `max_output_tokens` or
   * `cost_options` in any layer). Such a caller's body is read field by field on the wire (see assertModelRequest).
   */
  narrowsRequests(): boolean {
    return this.layers.some(narrowsRequests);
  }

  /**
   * Options that change a request's price (`service_tier`, priced betas) must be granted, in `cost_options`,
   * by every layer that narrows requests; a layer that does not narrow them allows all, so an unrestricted
   * key keeps working as it did.
   */
  permitsCostOption(option: CostOption): boolean {
    return this.layers.every((layer) => layer.cost_options?.includes(option) ?? !narrowsRequests(layer));
  }

  /**
   * A model request against the permissions, twice over. As the gateway understood it (`request`): the
   * capabilities it uses and its output cap. And, for a caller whose permissions narrow requests, as the
   * client sent it (`wire`), since a pass-through forwards that body as it is: every field must be one the
   * gateway knows what it asks of the model (else 403 naming it, rather than forwarding it unseen), every
   * capability a field asks for must be allowed, and no output cap or reasoning budget may be above the
   * ceiling, and every cost option it uses (a field, or a priced beta in the forwarded `anthropic-beta`
   * header) must be granted. Chat and streaming are what every model request is, so they are governed by
   * the model list. Items the request brings in from the gateway's store (`wire.brought`) are scanned as if
   * sent in the body.
   */
  assertModelRequest(
    request: ModelRequest,
    options: {
      params: RequestParamNames;
      wire: { scanner: WireScanner; body: unknown; brought?: readonly BroughtItem[]; headers?: Readonly<Record<string, string>> };
    },
  ): void {
    const { params, wire } = options;
    // The wire names the exact field at fault, so it speaks first.
    if (this.narrowsRequests()) this.assertWireBody(scanWireBody(wire.scanner, wire.body, wire.brought), wire.headers?.['anthropic-beta']);
    if (request.tools.length > 0) this.assertCapability('tools', params.tools);
    if (request.messages.some((message) => message.content.some(isVisualInput))) this.assertCapability('vision', params.images);
    if (request.responseFormat.type === 'json_schema') this.assertCapability('json_schema', params.json_schema);
    if (request.reasoning) this.assertCapability('reasoning', params.reasoning);
    if (request.maxOutputTokens !== undefined) this.assertAtMost('max_output_tokens', request.maxOutputTokens, params.maxOutputTokens);
  }

  private assertWireBody(scan: WireScan, anthropicBeta: string | undefined): void {
    const [unknown] = scan.unknown;
    if (unknown !== undefined) {
      throw new GatewayError(
        'permission',
        `This API key's permissions limit what a request may use, and the gateway does not know what '${unknown}' asks of the model, so it will not forward it. Leave it out, or use a key without capability or output limits.`,
        { param: unknown, code: 'parameter_not_permitted' },
      );
    }
    for (const use of scan.uses) this.assertCapability(use.capability, use.param);
    for (const { option, param } of [...scan.costOptions, ...costOptionsOfBetas(anthropicBeta)]) {
      if (!this.permitsCostOption(option)) {
        throw new GatewayError('permission', `This API key may not use ${option}, which changes the price of a request (asked for by '${param}').`, {
          param,
          code: 'cost_option_not_permitted',
        });
      }
    }
    // A reasoning budget of -1 (Gemini's "let the model decide") is held by the output cap, which counts thoughts.
    const candidates = scan.outputTokens.find((ask) => ask.kind === 'candidates' && ask.value > 1);
    for (const ask of scan.outputTokens) {
      if (ask.kind === 'reasoning_budget') this.assertAtMost('max_output_tokens', ask.value, ask.param);
      if (ask.kind === 'max_output') this.assertOutputOfCandidates(ask, candidates);
    }
    // With no cap named, the ceiling is shared among the answers (access/output-ceiling.ts): each needs a token.
    if (candidates && !scan.outputTokens.some((ask) => ask.kind === 'max_output')) this.assertOutputOfCandidates({ param: candidates.param, value: 1 }, candidates);
  }

  /** The ceiling holds for all the answers together: the cap times their count (`candidateCount`). */
  private assertOutputOfCandidates(cap: Pick<OutputTokenAsk, 'param' | 'value'>, candidates: OutputTokenAsk | undefined): void {
    if (!candidates) return this.assertAtMost('max_output_tokens', cap.value, cap.param);
    const ceiling = this.outputTokenCeiling();
    const total = cap.value * candidates.value;
    if (ceiling !== undefined && total > ceiling) {
      throw new GatewayError(
        'permission',
        `'${cap.param}' (${cap.value}) for each of ${candidates.value} answers ('${candidates.param}') is ${total} output tokens; this API key may ask for at most ${ceiling} in all.`,
        { param: candidates.param, code: 'parameter_not_permitted' },
      );
    }
  }

  /**
   * The most tokens (reasoning included) an upstream may be asked to generate for this caller: the
   * smallest `max_output_tokens` of its layers, or undefined when none has one.
   */
  outputTokenCeiling(): number | undefined {
    const ceilings = this.layers.map((layer) => layer.max_output_tokens).filter((ceiling) => ceiling !== undefined);
    return ceilings.length > 0 ? Math.min(...ceilings) : undefined;
  }

  /**
   * An image request: its capability and `n`, and the size it gets. A size asked for must be one every
   * layer's `image_sizes` allows. With `image_sizes` in force and no size asked for, the answer is the
   * first permitted size the model offers (`modelSizes`, undefined when the model takes any), so leaving
   * `size` out cannot get a size the key may not ask for; a model offering none of them is refused.
   */
  assertImageRequest(
    capability: 'image_generation' | 'image_edit',
    options: { n: number; size?: string; modelId: string; modelSizes?: readonly string[] },
  ): { size?: string } {
    this.assertCapability(capability, 'model');
    this.assertAtMost('max_images', options.n, 'n');
    const restricting = this.layers.filter((layer) => layer.image_sizes !== undefined).map((layer) => layer.image_sizes!);
    if (options.size !== undefined) {
      const refusing = restricting.find((sizes) => !sizes.includes(options.size!));
      if (refusing) {
        throw new GatewayError('permission', `This API key may not ask for size '${options.size}'; it may use: ${refusing.join(', ')}.`, {
          param: 'size',
          code: 'parameter_not_permitted',
        });
      }
      return { size: options.size };
    }
    if (restricting.length === 0) return {};
    const permitted = restricting[0]!.filter((size) => restricting.every((sizes) => sizes.includes(size)));
    const size = permitted.find((candidate) => !options.modelSizes || options.modelSizes.includes(candidate));
    if (size === undefined) {
      throw new GatewayError(
        'permission',
        `This API key may only ask for sizes (${permitted.join(', ') || 'none'}) that the model '${options.modelId}' does not offer (${options.modelSizes?.join(', ')}).`,
        { param: 'size', code: 'parameter_not_permitted' },
      );
    }
    return { size };
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

function narrowsRequests(layer: Permissions): boolean {
  return layer.capabilities !== undefined || layer.max_output_tokens !== undefined || layer.cost_options !== undefined;
}

/** Content the model looks at: images and files (PDFs), also inside a tool's result. */
function isVisualInput(part: ContentPart): boolean {
  if (part.type === 'tool_result') return part.content.some(isVisualInput);
  return part.type === 'image' || part.type === 'file';
}
