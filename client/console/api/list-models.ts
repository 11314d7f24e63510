import { unwrap, type components, type GatewayClient } from '../../index.js';
import type { View } from '../session.js';

type Model = components['schemas']['Model'];

/**
 * The models the session may use: `GET /v1/models` for an account key (already narrowed to what it may
 * use), `GET /admin/v1/models` (all of them) for the admin.
 */
export async function listModels(client: GatewayClient, view: View): Promise<Model[]> {
  if (view === 'admin') return unwrap(await client.GET('/admin/v1/models')).data;
  const list = unwrap(await client.GET('/v1/models'));
  // The path also answers in Anthropic's and Gemini's shapes, picked by their SDKs' headers; a bearer
  // key alone gets the OpenAI list.
  if (!('object' in list)) throw new Error('The gateway answered the model list in an unexpected shape.');
  return list.data;
}
