import { useEffect, useState } from 'preact/hooks';

interface CopyButtonProps {
  text: string;
  /** The accessible name, e.g. "Copy secret"; the visible text is "Copy". */
  label: string;
  /** Selects the text on screen when the clipboard is unavailable, so Ctrl+C / ⌘C copies it instead. */
  selectFallback?(): void;
}

/**
 * Copies to the clipboard and says so next to the button ("Copied"), in a live region so screen readers
 * hear it too. Without clipboard access (an insecure origin, a refused permission) it selects the text and
 * asks the reader to copy it by hand.
 */
export function CopyButton({ text, label, selectFallback }: CopyButtonProps) {
  const [outcome, setOutcome] = useState<'copied' | 'manual' | undefined>();
  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(undefined), 2500);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      selectFallback?.();
      setOutcome('manual');
    }
  }

  return (
    <span class="copy">
      <button type="button" class="button button-small" aria-label={label} onClick={copy}>
        Copy
      </button>
      <span class="copy-outcome" role="status">
        {outcome === 'copied' ? 'Copied' : outcome === 'manual' ? 'Press Ctrl+C (⌘C) to copy the selected text' : ''}
      </span>
    </span>
  );
}
