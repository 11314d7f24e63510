import { listModels } from '../../api/list-models.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';
import { ModelCard } from './model-card.js';
import './models.css';

/** The models the key may use (for the admin: every configured model), with prices and examples. */
export function ModelsPage() {
  const { client, session } = useSignedIn();
  const models = useResource(() => listModels(client, session.view), [client]);
  const intro =
    session.view === 'admin'
      ? 'Every model the gateway serves, whoever may use it. Accounts see the ones their permissions allow.'
      : 'The models your key may use, what they can do and what they cost, with example requests for each API.';
  return (
    <Page title="Models" intro={intro}>
      <ErrorAlert error={models.error} />
      {models.data === undefined ? (
        models.loading && <Loading label="Loading models…" />
      ) : models.data.length === 0 ? (
        <p class="empty">No models are available to this key. Ask the gateway's admin to allow some.</p>
      ) : (
        <div class="model-list">
          {models.data.map((model) => (
            <ModelCard key={model.id} model={model} />
          ))}
        </div>
      )}
    </Page>
  );
}
