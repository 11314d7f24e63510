import type { View } from './session.js';
import { AccountPage } from './pages/accounts/account-page.js';
import { AccountsPage } from './pages/accounts/accounts-page.js';
import { BatchesPage } from './pages/batches/batches-page.js';
import { KeysPage } from './pages/keys/keys-page.js';
import { ModelsPage } from './pages/models/models-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { PlaygroundPage } from './pages/playground/playground-page.js';
import { UsagePage } from './pages/usage/usage-page.js';

/** The view for a route (`#/keys`, `#/accounts/acct_1`, …); accounts are the admin's alone. */
export function ConsoleRoutes({ view, route }: { view: View; route: string[] }) {
  const [section, id] = route;
  switch (section) {
    case 'usage':
      return <UsagePage />;
    case 'keys':
      return <KeysPage />;
    case 'batches':
      return <BatchesPage />;
    case 'models':
      return <ModelsPage />;
    case 'playground':
      return <PlaygroundPage />;
    case 'accounts':
      if (view !== 'admin') break;
      return id ? <AccountPage key={id} accountId={id} /> : <AccountsPage />;
  }
  return <NotFoundPage />;
}
