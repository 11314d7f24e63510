/**
 * How a conversation the gateway compacted reads to a model: its sealed `compaction` item, opened again,
 * is a user message that starts with {@link summaryPreamble} and goes on with the summary
 * (protocols/openai-responses/compaction-items.ts writes it; the built-in model reads it).
 */

/**
 * Said before the summary a sealed `compaction` item holds when it stands in the conversation again, so
 * the model reads it as the earlier work to build on (the same role as Codex's own `summary_prefix`
 * template, codex-rs/core/templates/compact/summary_prefix.md).
 */
export const summaryPreamble =
  'The conversation so far was compacted into the summary below (written by a model for the one that continues the work). Build on it; do not repeat finished work.';

/** The text of an opened compaction item: the preamble, then the summary. */
export function compactedSummaryText(summary: string): string {
  return `${summaryPreamble}\n\n${summary}`;
}

/** True when `text` is an opened compaction item's (it starts with the preamble). */
export function isCompactedSummary(text: string): boolean {
  return text.startsWith(summaryPreamble);
}
