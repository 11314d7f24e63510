import type { components } from '../../index.js';

type Capability = components['schemas']['ModelCapability'];

const labels: Record<Capability, string> = {
  chat: 'Chat',
  streaming: 'Streaming',
  tools: 'Tools',
  vision: 'Vision',
  json_schema: 'JSON schema',
  reasoning: 'Reasoning',
  image_generation: 'Image generation',
  image_edit: 'Image editing',
  embeddings: 'Embeddings',
};

export function capabilityLabel(capability: Capability): string {
  return labels[capability] ?? capability;
}

/** Every capability the contract knows, in a stable order, for checkboxes. */
export const allCapabilities = Object.keys(labels) as Capability[];

/** A model's capabilities as a labelled list of badges. */
export function CapabilityBadges({ capabilities }: { capabilities: Capability[] }) {
  return (
    <ul class="badges" aria-label="Capabilities">
      {capabilities.map((capability) => (
        <li key={capability} class={`badge badge-${capability}`}>
          {capabilityLabel(capability)}
        </li>
      ))}
    </ul>
  );
}
