import { useRef } from 'preact/hooks';
import { CopyButton } from './copy-button.js';

/** A titled block of code with a Copy button. */
export function CodeSnippet({ title, code }: { title: string; code: string }) {
  const block = useRef<HTMLElement>(null);
  const selectCode = () => {
    const selection = window.getSelection();
    if (block.current && selection) selection.selectAllChildren(block.current);
  };
  return (
    <figure class="snippet">
      <figcaption class="snippet-header">
        <span>{title}</span>
        <CopyButton text={code} label={`Copy ${title}`} selectFallback={selectCode} />
      </figcaption>
      <pre class="snippet-code" tabIndex={0}>
        <code ref={block}>{code}</code>
      </pre>
    </figure>
  );
}
