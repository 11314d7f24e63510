import type { ModelRegistry } from '../../core/model-registry.js';
import type { ObservedRouter } from '../../core/route-call.js';
import type { ImageStorage } from '../../image-files/image-storage.js';

/** What the image endpoints share. */
export interface ImageServices {
  registry: ModelRegistry;
  router: ObservedRouter;
  storage: ImageStorage;
  /** How long an image URL works (`images.url_ttl_seconds`). */
  urlTtlMs: number;
  /** The config's `public_base_url`, if any. */
  publicBaseUrl?: string;
}
