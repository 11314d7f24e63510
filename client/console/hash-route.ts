import { useEffect, useState } from 'preact/hooks';

/**
 * The console's route: the part of the URL after `#/`, split on `/`. Hash routing needs nothing from the
 * server, which serves one `index.html` for `/console/`. A fragment without `/` (such as the skip link's
 * `#main`) is not a route and leaves the current one in place.
 */
export function useHashRoute(): string[] {
  const [route, setRoute] = useState(() => routeOf(location.hash) ?? []);
  useEffect(() => {
    const onChange = () => {
      const next = routeOf(location.hash);
      if (next) setRoute(next);
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The link to a route, e.g. `href('accounts', id)` → `#/accounts/acct_1`. */
export function href(...segments: string[]): string {
  return `#/${segments.map(encodeURIComponent).join('/')}`;
}

export function navigate(...segments: string[]): void {
  location.hash = href(...segments);
}

function routeOf(hash: string): string[] | undefined {
  if (hash === '' || hash === '#' || hash === '#/') return [];
  if (!hash.startsWith('#/')) return undefined;
  return hash.slice(2).split('/').filter(Boolean).map(decodeURIComponent);
}
