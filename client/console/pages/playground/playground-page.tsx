import { useId, useMemo, useState } from 'preact/hooks';
import { listModels } from '../../api/list-models.js';
import { CapabilityBadges } from '../../components/capability-badges.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';
import { ChatPanel } from './chat-panel.js';
import { EmbeddingsPanel } from './embeddings-panel.js';
import { ImageEditPanel } from './image-edit-panel.js';
import { ImageGenerationPanel } from './image-generation-panel.js';
import './playground.css';

const intro = 'Try a model through the gateway’s own public API with your key. Requests count towards your usage and limits like any other.';

/** Chat, image generation, image editing and embeddings with a model the signed-in key may use. */
export function PlaygroundPage() {
  const { session } = useSignedIn();
  if (session.view === 'admin') {
    return (
      <Page title="Playground" intro={intro}>
        <div class="card notice">
          <p>
            <strong>The playground needs an account key.</strong> The admin key manages the gateway but cannot call models: model requests are
            metered and limited per account. Create a key on an account’s page (<a href="#/accounts">Accounts</a>), then sign out and sign in
            with it.
          </p>
        </div>
      </Page>
    );
  }
  return <UserPlayground />;
}

function UserPlayground() {
  const { client } = useSignedIn();
  const models = useResource(() => listModels(client, 'user'), [client]);
  const [chosenId, setChosenId] = useState<string>();
  const selectId = useId();
  const usable = useMemo(
    () => (models.data ?? []).filter((model) => model.capabilities.some((capability) => capability === 'chat' || capability === 'image_generation' || capability === 'image_edit' || capability === 'embeddings')),
    [models.data],
  );
  const model = usable.find((candidate) => candidate.id === chosenId) ?? usable.find((candidate) => candidate.capabilities.includes('chat')) ?? usable[0];

  return (
    <Page title="Playground" intro={intro}>
      <ErrorAlert error={models.error} />
      {models.data === undefined && models.loading && <Loading label="Loading models…" />}
      {models.data && usable.length === 0 && <p class="empty">No model this key may use can chat, make images or embed text.</p>}
      {model && (
        <>
          <div class="toolbar">
            <div class="field field-inline">
              <label for={selectId}>Model</label>
              <select id={selectId} value={model.id} onChange={(event) => setChosenId(event.currentTarget.value)}>
                {usable.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.id}
                  </option>
                ))}
              </select>
            </div>
            <CapabilityBadges capabilities={model.capabilities} />
          </div>
          <div class="panels" key={model.id}>
            {model.capabilities.includes('chat') && <ChatPanel model={model.id} />}
            {model.capabilities.includes('image_generation') && <ImageGenerationPanel model={model} />}
            {model.capabilities.includes('image_edit') && <ImageEditPanel model={model} />}
            {model.capabilities.includes('embeddings') && <EmbeddingsPanel model={model.id} />}
          </div>
        </>
      )}
    </Page>
  );
}
