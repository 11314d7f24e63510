import type { ComponentChildren } from 'preact';
import { href } from '../hash-route.js';
import type { Session } from '../session.js';

interface NavItem {
  route: string;
  label: string;
}

const userNav: NavItem[] = [
  { route: 'usage', label: 'Usage' },
  { route: 'batches', label: 'Batches' },
  { route: 'keys', label: 'Keys' },
  { route: 'models', label: 'Models' },
  { route: 'playground', label: 'Playground' },
];

const adminNav: NavItem[] = [
  { route: 'accounts', label: 'Accounts' },
  { route: 'keys', label: 'Keys' },
  { route: 'models', label: 'Models' },
  { route: 'usage', label: 'Usage' },
  { route: 'batches', label: 'Batches' },
  { route: 'playground', label: 'Playground' },
];

/** The first view after signing in, and what `#/` shows. */
export function homeRoute(session: Session): string {
  return session.view === 'admin' ? 'accounts' : 'usage';
}

interface ShellProps {
  session: Session;
  /** The first segment of the current route, to mark the current page in the navigation. */
  current: string;
  onSignOut(): void;
  children: ComponentChildren;
}

/** The signed-in frame: skip link, header with who is signed in, navigation, and the view in `<main>`. */
export function Shell({ session, current, onSignOut, children }: ShellProps) {
  const items = session.view === 'admin' ? adminNav : userNav;
  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          // The hash is the router's; move focus without touching it.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="site-header">
        <div class="header-row">
          <a class="brand" href={href(homeRoute(session))}>
            <span class="brand-mark" aria-hidden="true">
              ◆
            </span>
            Unified Model API
          </a>
          <div class="identity">
            <span class="identity-text">
              {session.view === 'admin' ? (
                <span class="tag tag-admin">Admin</span>
              ) : (
                <>
                  <span class="visually-hidden">Signed in to account </span>
                  <strong>{session.me?.account.name}</strong>
                  <span class="identity-key"> · key {session.me?.key.name}</span>
                </>
              )}
            </span>
            <button type="button" class="button button-small" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        </div>
        <nav aria-label="Main">
          <ul class="nav-list">
            {items.map((item) => (
              <li key={item.route}>
                <a class="nav-link" href={href(item.route)} aria-current={item.route === current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
            <li class="nav-separator" aria-hidden="true" />
            <li>
              <a class="nav-link" href="/docs/">
                API docs
              </a>
            </li>
            <li>
              <a class="nav-link" href="/openapi.yaml">
                OpenAPI spec
              </a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
