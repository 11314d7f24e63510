import { Page } from '../components/page.js';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>There is no such page in the console. Pick one from the navigation above.</p>
    </Page>
  );
}
