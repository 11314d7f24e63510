import type { OperationHandlers, SuccessBody } from '../../generated/operations.js';
import type { ClientProtocol, ClientProtocolName } from '../core/client-protocol.js';
import type { RoutedCallDependencies } from '../core/route-call.js';
import type { RegisteredModel } from '../core/model-registry.js';
import type { ImageServices } from './openai-images/image-services.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { ResponseStore } from '../store/response-store.js';
import type { WarmUpTest } from './openai-responses/warm-up.js';
import type { CompactionSeal } from './openai-responses/compaction-seal.js';
import type { BatchService } from '../batches/batch-service.js';

/**
 * Everything the gateway knows about one client protocol, declared once in its folder's `index.ts`: what
 * the layers below read through the request context or the model call (ClientProtocol, in core/, so they
 * never import protocols/), the handlers of its operations and, for the one protocol of a family that
 * renders it, the family's model list. protocols/registry.ts lists the definitions and derives every
 * per-protocol table from the list, so adding a client protocol is its folder and one entry there.
 */
export interface ClientProtocolDefinition<Name extends ClientProtocolName = ClientProtocolName> extends ClientProtocol<Name> {
  /** The handlers of the spec's operations in this protocol, by operationId. */
  operations(deps: ProtocolDependencies): Partial<OperationHandlers>;
  /**
   * How `GET /v1/models` answers a client of the family (told by how it authenticates): declared by one
   * protocol of each family, the one whose SDK lists models.
   */
  modelList?: ModelListRenderer;
}

/** What the protocols' handlers are built from (create-handlers.ts passes its own dependencies). */
export interface ProtocolDependencies extends RoutedCallDependencies {
  responses: ResponseStore;
  /** OpenAI Conversations (`/v1/conversations`). */
  conversations: ConversationStore;
  /** Seconds a stored response lives (`responses.retention_days`). */
  responseRetentionSeconds: number;
  /** Tells the Responses WebSocket's warm-up requests (protocols/openai-responses/warm-up.ts). */
  isResponsesWarmUp?: WarmUpTest;
  /** Seals and opens the `compaction` items the gateway makes (openai-responses/compaction-seal.ts). */
  compactionSeal: CompactionSeal;
  images: ImageServices;
  /** Batches the gateway runs (server/batches/): Anthropic's Message Batches (and OpenAI's Batch API, served by management/batches/). */
  batches: BatchService;
}

/** Express 5 leaves query values as strings (the validator only checks them). */
export type ModelListQuery = { limit?: string; after_id?: string; before_id?: string; pageSize?: string; pageToken?: string };

/** A family's model list and one model of it, in the shape its SDK parses. */
export interface ModelListRenderer {
  list(models: readonly RegisteredModel[], query: ModelListQuery): SuccessBody<'listModels'>;
  one(model: RegisteredModel): SuccessBody<'retrieveModel'>;
}
