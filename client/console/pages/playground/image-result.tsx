import type { components } from '../../../index.js';

type ImagesResponse = components['schemas']['ImagesResponse'];

/** Where an answered image can be shown from: its base64 as a `data:` URL (allowed by the page's CSP), or its link. */
export function imageSource(response: ImagesResponse): string | undefined {
  const image = response.data[0];
  if (image?.b64_json) return `data:image/${response.output_format ?? 'png'};base64,${image.b64_json}`;
  return image?.url;
}

/** A generated or edited image with a download link. */
export function ImageResult({ response, alt, fileStem }: { response: ImagesResponse; alt: string; fileStem: string }) {
  const source = imageSource(response);
  if (!source) return <p class="hint">The answer held no image.</p>;
  const extension = response.output_format ?? 'png';
  return (
    <figure class="image-result">
      <img src={source} alt={alt} />
      <figcaption>
        {response.data[0]?.revised_prompt && <span>Prompt used: {response.data[0].revised_prompt} · </span>}
        <a href={source} download={`${fileStem}.${extension}`}>
          Download image
        </a>
      </figcaption>
    </figure>
  );
}
