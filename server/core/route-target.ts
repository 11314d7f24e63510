import type { Deployment, RegisteredModel } from './model-registry.js';

/** The model (the requested one or a fallback) and deployment one attempt goes to. */
export interface RouteTarget {
  model: RegisteredModel;
  deployment: Deployment;
}
