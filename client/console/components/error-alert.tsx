import { describeError } from '../api/describe-error.js';

/**
 * An error banner. `role="alert"` makes screen readers announce it as soon as it appears; nothing is
 * rendered while there is no error, so an empty region never reads out.
 */
export function ErrorAlert({ error, message }: { error?: unknown; message?: string }) {
  const text = message ?? (error === undefined || error === null ? undefined : describeError(error));
  if (!text) return null;
  return (
    <div class="alert alert-error" role="alert">
      {text}
    </div>
  );
}

/** A short confirmation of something done, read out politely (after what the reader is hearing now). */
export function StatusNote({ message }: { message?: string }) {
  return (
    <p class="status-note" role="status">
      {message ?? ''}
    </p>
  );
}
