import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import type { ImageStorage } from '../../image-files/image-storage.js';

/** What the image endpoints share. */
export interface ImageServices {
  registry: ModelRegistry;
  router: Router;
  storage: ImageStorage;
  /** How long an image URL works (`images.url_ttl_seconds`). */
  urlTtlMs: number;
  /** The config's `public_base_url`, if any. */
  publicBaseUrl?: string;
}
