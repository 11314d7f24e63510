import { useId, useState } from 'preact/hooks';
import { unwrap, type components } from '../../../index.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { useAction } from '../../hooks/use-action.js';
import { useSignedIn } from '../../session-context.js';
import { ImageResult } from './image-result.js';

type Model = components['schemas']['Model'];
type ImagesResponse = components['schemas']['ImagesResponse'];

// Offered when the model lists no sizes (it then takes any WIDTHxHEIGHT): the common OpenAI ones.
const commonSizes = ['1024x1024', '1536x1024', '1024x1536', 'auto'];

/** Generates one image (`POST /v1/images/generations`) at one of the sizes the model takes. */
export function ImageGenerationPanel({ model }: { model: Model }) {
  const { client } = useSignedIn();
  const sizes = model.images?.sizes ?? commonSizes;
  const [prompt, setPrompt] = useState('');
  const [size, setSize] = useState(sizes.includes('512x512') ? '512x512' : sizes[0]!);
  const [result, setResult] = useState<{ response: ImagesResponse; prompt: string }>();
  const promptId = useId();
  const sizeId = useId();
  const generate = useAction(async () => {
    const response = unwrap(await client.POST('/v1/images/generations', { body: { model: model.id, prompt, size, n: 1, response_format: 'b64_json' } }));
    setResult({ response, prompt });
  });

  return (
    <section class="card panel" aria-labelledby="generate-heading">
      <h2 id="generate-heading">Generate an image</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void generate.run();
        }}
      >
        <div class="field">
          <label for={promptId}>Image prompt</label>
          <textarea id={promptId} rows={2} required value={prompt} placeholder="A red fox in a snowy forest at sunrise" onInput={(event) => setPrompt(event.currentTarget.value)} />
        </div>
        <div class="field field-inline">
          <label for={sizeId}>Size</label>
          <select id={sizeId} value={size} onChange={(event) => setSize(event.currentTarget.value)}>
            {sizes.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="button button-primary" disabled={generate.busy}>
          {generate.busy ? 'Generating…' : 'Generate image'}
        </button>
      </form>
      <p class="status-note" role="status">
        {generate.busy ? 'Generating the image…' : result ? 'Image ready.' : ''}
      </p>
      <ErrorAlert error={generate.error} />
      {result && <ImageResult response={result.response} alt={`Generated image: ${result.prompt}`} fileStem="generated" />}
    </section>
  );
}
