import type { components } from '../../../index.js';
import { CapabilityBadges } from '../../components/capability-badges.js';
import { formatUsd } from '../../format.js';
import { ExampleRequestsPanel } from './example-requests-panel.js';

type Model = components['schemas']['Model'];

/** One model: what it can do, what it costs, the image settings it takes and how to call it. */
export function ModelCard({ model }: { model: Model }) {
  const headingId = `model-${model.id.replace(/[^\w-]/g, '-')}`;
  return (
    <article class="card model-card" aria-labelledby={headingId}>
      <header class="model-header">
        <h2 id={headingId} class="model-id">
          {model.id}
        </h2>
        <span class="model-owner">served by {model.owned_by}</span>
      </header>
      <CapabilityBadges capabilities={model.capabilities} />
      <div class="model-facts">
        <Pricing model={model} />
        {model.images && <ImageSettings images={model.images} />}
      </div>
      <details class="disclosure">
        <summary>Example requests</summary>
        <ExampleRequestsPanel model={model} />
      </details>
    </article>
  );
}

function Pricing({ model }: { model: Model }) {
  const pricing = model.pricing;
  if (!pricing) return <p class="hint">No prices configured: usage of this model costs $0.</p>;
  const images = model.capabilities.some((capability) => capability === 'image_generation' || capability === 'image_edit');
  return (
    <dl class="facts" aria-label="Prices">
      <div>
        <dt>Input</dt>
        <dd>{formatUsd(pricing.input_per_mtok)} / 1M tokens</dd>
      </div>
      {pricing.cached_input_per_mtok !== undefined && (
        <div>
          <dt>Cached input</dt>
          <dd>{formatUsd(pricing.cached_input_per_mtok)} / 1M tokens</dd>
        </div>
      )}
      <div>
        <dt>Output</dt>
        <dd>{formatUsd(pricing.output_per_mtok)} / 1M tokens</dd>
      </div>
      {(images || pricing.per_image > 0) && (
        <div>
          <dt>Per image</dt>
          <dd>{formatUsd(pricing.per_image)}</dd>
        </div>
      )}
    </dl>
  );
}

function ImageSettings({ images }: { images: NonNullable<Model['images']> }) {
  return (
    <dl class="facts" aria-label="Image settings">
      <div>
        <dt>Sizes</dt>
        <dd>{images.sizes?.join(', ') ?? 'any WIDTHxHEIGHT'}</dd>
      </div>
      <div>
        <dt>Images per request</dt>
        <dd>up to {images.max_n}</dd>
      </div>
      <div>
        <dt>Formats</dt>
        <dd>{images.output_formats.join(', ')}</dd>
      </div>
    </dl>
  );
}
