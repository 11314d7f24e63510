import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface PageProps {
  title: string;
  /** One sentence under the heading saying what the page is for. */
  intro?: ComponentChildren;
  /** Buttons at the heading's right (Refresh, Export…). */
  actions?: ComponentChildren;
  children: ComponentChildren;
}

/**
 * A view's frame: its heading and the document title. The heading takes focus when the view opens, so
 * after a navigation keyboard and screen-reader users start at the new content rather than the page top.
 */
export function Page({ title, intro, actions, children }: PageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Unified Model API console`;
  }, [title]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <>
      <div class="page-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {intro && <p class="intro">{intro}</p>}
        </div>
        {actions && <div class="page-actions">{actions}</div>}
      </div>
      {children}
    </>
  );
}
