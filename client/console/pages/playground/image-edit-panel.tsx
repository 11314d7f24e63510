import { useEffect, useId, useState } from 'preact/hooks';
import type { components } from '../../../index.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { useAction } from '../../hooks/use-action.js';
import { useSignedIn } from '../../session-context.js';
import { ImageResult } from './image-result.js';

type Model = components['schemas']['Model'];
type ImagesResponse = components['schemas']['ImagesResponse'];

/** Edits an uploaded image (`POST /v1/images/edits`, multipart) by a written instruction. */
export function ImageEditPanel({ model }: { model: Model }) {
  const { client } = useSignedIn();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<string>();
  const [prompt, setPrompt] = useState('');
  const [result, setResult] = useState<{ response: ImagesResponse; prompt: string }>();
  const fileId = useId();
  const promptId = useId();
  const edit = useAction(async () => {
    const response = await client.editImage({ image: file!, prompt, model: model.id, n: 1, response_format: 'b64_json' });
    setResult({ response, prompt });
  });

  // The chosen file is shown from a blob: URL (the CSP allows it), released when replaced.
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <section class="card panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit an image</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void edit.run();
        }}
      >
        <div class="field">
          <label for={fileId}>Image to edit</label>
          <input id={fileId} type="file" accept="image/png,image/jpeg,image/webp" required onChange={(event) => setFile(event.currentTarget.files?.[0])} />
          <p class="hint">PNG, JPEG or WebP.</p>
        </div>
        {preview && <img class="image-preview" src={preview} alt={`The image to edit: ${file?.name ?? ''}`} />}
        <div class="field">
          <label for={promptId}>Edit instruction</label>
          <textarea id={promptId} rows={2} required value={prompt} placeholder="e.g. make it sepia, greyscale, blur, mirror" onInput={(event) => setPrompt(event.currentTarget.value)} />
        </div>
        <button type="submit" class="button button-primary" disabled={edit.busy}>
          {edit.busy ? 'Editing…' : 'Edit image'}
        </button>
      </form>
      <p class="status-note" role="status">
        {edit.busy ? 'Editing the image…' : result ? 'Edited image ready.' : ''}
      </p>
      <ErrorAlert error={edit.error} />
      {result && <ImageResult response={result.response} alt={`Edited image: ${result.prompt}`} fileStem="edited" />}
    </section>
  );
}
