import type { ComponentChildren } from 'preact';

/**
 * Lets a wide table scroll sideways inside the page on narrow screens instead of widening the page. It is
 * focusable and named so keyboard users can scroll it with the arrow keys too.
 */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
