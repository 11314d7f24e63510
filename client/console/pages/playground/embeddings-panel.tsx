import { useId, useState } from 'preact/hooks';
import { unwrap } from '../../../index.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { useAction } from '../../hooks/use-action.js';
import { useSignedIn } from '../../session-context.js';
import { cosineSimilarity } from './cosine-similarity.js';

interface Comparison {
  similarity: number | undefined;
  dimensions: number;
  tokens: number;
}

/** Embeds two texts in one request (`POST /v1/embeddings`) and shows how alike the model finds them. */
export function EmbeddingsPanel({ model }: { model: string }) {
  const { client } = useSignedIn();
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [comparison, setComparison] = useState<Comparison>();
  const firstId = useId();
  const secondId = useId();
  const compare = useAction(async () => {
    setComparison(undefined);
    const response = unwrap(await client.POST('/v1/embeddings', { body: { model, input: [first, second], encoding_format: 'float' } }));
    const [a, b] = response.data.map((item) => item.embedding as number[]);
    setComparison({ similarity: cosineSimilarity(a ?? [], b ?? []), dimensions: a?.length ?? 0, tokens: response.usage.prompt_tokens });
  });

  return (
    <section class="card panel" aria-labelledby="embed-heading">
      <h2 id="embed-heading">Compare two texts</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void compare.run();
        }}
      >
        <div class="field">
          <label for={firstId}>First text</label>
          <textarea id={firstId} rows={2} required value={first} placeholder="The cat sat on the mat" onInput={(event) => setFirst(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for={secondId}>Second text</label>
          <textarea id={secondId} rows={2} required value={second} placeholder="A cat sitting on a rug" onInput={(event) => setSecond(event.currentTarget.value)} />
        </div>
        <button type="submit" class="button button-primary" disabled={compare.busy}>
          {compare.busy ? 'Embedding…' : 'Embed and compare'}
        </button>
      </form>
      <p class="status-note" role="status">
        {compare.busy ? 'Embedding both texts…' : ''}
      </p>
      <ErrorAlert error={compare.error} />
      {comparison && (
        <dl class="embedding-comparison" aria-label="Comparison">
          <dt>Cosine similarity</dt>
          <dd>{comparison.similarity === undefined ? 'none (a vector is zero)' : comparison.similarity.toFixed(3)}</dd>
          <dt>Dimensions</dt>
          <dd>{comparison.dimensions}</dd>
          <dt>Input tokens</dt>
          <dd>{comparison.tokens}</dd>
        </dl>
      )}
    </section>
  );
}
