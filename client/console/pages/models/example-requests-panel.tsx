import { useMemo, useState } from 'preact/hooks';
import type { components } from '../../../index.js';
import { CodeSnippet } from '../../components/code-snippet.js';
import { exampleRequests } from './example-requests.js';

/**
 * A model's example requests: one button per protocol (pressed = shown; plain buttons, so Tab and Enter
 * are all it takes), then the curl and JavaScript versions of the chosen one.
 */
export function ExampleRequestsPanel({ model }: { model: components['schemas']['Model'] }) {
  const examples = useMemo(() => exampleRequests(model, location.origin), [model]);
  const [chosen, setChosen] = useState(0);
  const example = examples[chosen];
  if (!example) return <p class="hint">This model has no API the console has examples for.</p>;
  return (
    <div class="examples">
      {examples.length > 1 && (
        <div class="segmented" role="group" aria-label={`Protocol of the examples for ${model.id}`}>
          {examples.map((candidate, index) => (
            <button key={candidate.protocol} type="button" class="segment" aria-pressed={index === chosen} onClick={() => setChosen(index)}>
              {candidate.protocol}
            </button>
          ))}
        </div>
      )}
      <CodeSnippet title={`${example.protocol} · curl`} code={example.curl} />
      <CodeSnippet title={`${example.protocol} · JavaScript (${example.sdk})`} code={example.javascript} />
      <p class="hint">
        Set <code>GATEWAY_API_KEY</code> to one of your keys first, e.g. <code>export GATEWAY_API_KEY=…</code>.
      </p>
    </div>
  );
}
