// The web console at /console/, driven in headless Chromium against a real gateway: signing in (account key,
// admin key, refused keys), keys, models, usage, batches, the playground and the admin's accounts, plus /docs/.
// Screenshots of every view go to test-artifacts/console/.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { defaultConfig } from '../server/config/default-config.js';
import type { GatewayConfig } from '../server/config/config-schema.js';
import {
  cspProblems,
  fitsViewportWidth,
  launchChromium,
  openPage,
  screenshot,
  signIn,
  signInByKeyboard,
  unexpectedProblems,
  waitForText,
  waitUntil,
  type WatchedPage,
} from './helpers/console-browser.js';
import { seedUsageHistory } from './helpers/console-usage-history.js';
import { makeImage } from './helpers/images.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

// Built-in models with prices (so costs show) and a chunk delay (so a streamed reply visibly grows).
const config: GatewayConfig = {
  ...defaultConfig,
  providers: defaultConfig.providers.map((provider) => ({ ...provider, chunk_delay_ms: 15 })),
  models: defaultConfig.models.map((model) => ({
    ...model,
    pricing: { input_per_mtok: 0.5, output_per_mtok: 1.5, per_image: model.id === 'builtin/echo' ? 0 : 0.02 },
  })),
  // A horizon far back (nothing a test writes is deleted), so the usage page shows it.
  ledger: { ...defaultConfig.ledger, retention_days: 400 },
};

let gateway: TestGateway;
let browser: Browser;
let user: WatchedPage;
/** The secret of the key the user creates and later revokes in the UI. */
let revokedSecret = '';

before(async () => {
  // Both are kept whatever happens to the other, so `after` closes the gateway even when Chromium fails to
  // start (a gateway left open keeps the test process alive until the runner's time-out).
  const [gatewayStart, browserStart] = await Promise.allSettled([startGateway({ config }), launchChromium()]);
  if (gatewayStart.status === 'fulfilled') gateway = gatewayStart.value;
  if (browserStart.status === 'fulfilled') browser = browserStart.value;
  for (const start of [gatewayStart, browserStart]) if (start.status === 'rejected') throw start.reason;
  user = await openPage(browser);
  await user.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.origin });
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });

async function openNav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

describe('console', () => {
  test('an account key signs in by keyboard, makes a key that works with the SDK, sees its usage, renames and revokes it', async () => {
    const { page } = user;
    await signInByKeyboard(page, gateway.origin, gateway.apiKey);
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.length + document.cookie.length), 0, 'the key is not kept in localStorage or cookies');
    // The skip link moves focus past the navigation; a reload keeps the tab signed in.
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();

    await openNav(page, 'Keys');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByLabel('Key name').fill('sdk-key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Key “sdk-key” created' });
    const secret = await dialog.getByLabel('New key secret').inputValue();
    assert.match(secret, /^sk-/);
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await dialog.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screenshot(page, 'keys-new-secret', false);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const completion = await sdk(secret).chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'Hello from the SDK' }] });
    assert.equal(completion.choices[0]?.message.content, 'You said: Hello from the SDK');

    // The ledger writes in batches within about a second: refresh until the request is listed.
    await openNav(page, 'Usage');
    const recent = page.getByRole('region', { name: 'Recent requests' });
    await waitUntil(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('status').filter({ hasText: 'Usage loaded.' }).waitFor();
      return (await recent.getByRole('row').filter({ hasText: 'POST /v1/chat/completions' }).count()) > 0;
    }, 'the SDK request in the recent requests table');
    const row = recent.getByRole('row').filter({ hasText: 'POST /v1/chat/completions' }).first();
    assert.match((await row.textContent()) ?? '', /builtin\/echo.*200/);
    const horizon = new Date(Math.floor((Date.now() - 400 * 86_400_000) / 3_600_000) * 3_600_000).getFullYear();
    assert.match((await page.getByText('their rows are deleted').textContent()) ?? '', new RegExp(`Requests before .*${horizon}.* are in the totals`), 'retention\'s horizon is shown');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^usage-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(csv, /^id,created_at,/);
    assert.match(csv, /POST \/v1\/chat\/completions/);

    // Rename (Escape closes a dialog without changes), then revoke.
    await openNav(page, 'Keys');
    await page.getByRole('button', { name: 'Rename key sdk-key' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename key “sdk-key”' });
    await rename.getByLabel('New name').waitFor();
    await page.keyboard.press('Escape');
    await rename.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Rename key sdk-key' }).click();
    await rename.getByLabel('New name').fill('ci-key');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('row', { name: /ci-key/ }).waitFor();
    await page.getByRole('button', { name: 'Revoke key ci-key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke key “ci-key”?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key “ci-key” revoked.' }).waitFor();
    await page.getByRole('row', { name: /ci-key/ }).getByText('Revoked').waitFor();
    await screenshot(page, 'keys');
    await assert.rejects(
      sdk(secret).chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'Still there?' }] }),
      OpenAI.AuthenticationError,
    );
    revokedSecret = secret;
  });

  test('the playground streams a chat reply as it is written, and Stop ends one', async () => {
    const { page } = user;
    await openNav(page, 'Playground');
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    assert.equal(await page.getByLabel('Model').inputValue(), 'builtin/echo');
    const log = page.getByRole('log', { name: 'Conversation' });

    // Record every text the reply shows, as the DOM changes, to see it grow chunk by chunk.
    await log.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { replyTexts: string[] }).replyTexts = seen;
      new MutationObserver(() => {
        const replies = element.querySelectorAll('[aria-label="Assistant"] .message-text');
        const text = replies[replies.length - 1]?.textContent ?? '';
        if (text && text !== '…' && seen.at(-1) !== text) seen.push(text);
      }).observe(element, { subtree: true, childList: true, characterData: true });
    });
    const words = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
    await page.getByLabel('Message').fill(words);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: /Reply complete/ }).waitFor();
    const reply = log.getByRole('article', { name: 'Assistant' }).last();
    assert.equal(await reply.locator('.message-text').textContent(), `You said: ${words}`);
    const texts = await page.evaluate(() => (window as unknown as { replyTexts: string[] }).replyTexts);
    assert.ok(texts.length >= 3, `the reply grew in steps (saw ${texts.length}: ${JSON.stringify(texts)})`);
    for (let index = 1; index < texts.length; index++) assert.ok(texts[index]!.startsWith(texts[index - 1]!), 'each step extends the last');
    assert.ok(texts[0]!.length < `You said: ${words}`.length, 'partial text showed before the end');
    await screenshot(page, 'playground-chat');

    // A long reply, stopped part-way.
    await page.getByLabel('Message').fill(Array.from({ length: 200 }, (_, index) => `word${index}`).join(' '));
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForText(reply.locator('.message-text').last(), /word3/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('status').filter({ hasText: 'Stopped.' }).waitFor();
    const stopped = (await log.getByRole('article', { name: 'Assistant' }).last().textContent()) ?? '';
    assert.doesNotMatch(stopped, /word199/);
  });

  test('the playground generates an image and edits one', async () => {
    const { page } = user;
    await page.getByLabel('Model').selectOption('builtin/image');
    await page.getByLabel('Image prompt').fill('a blue circle on a yellow sky');
    await page.getByLabel('Size').selectOption('256x256');
    await page.getByRole('button', { name: 'Generate image' }).click();
    const generated = page.getByRole('img', { name: 'Generated image: a blue circle on a yellow sky' });
    await generated.waitFor();
    await waitUntil(() => generated.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), 'the generated image loads');
    assert.equal(await generated.evaluate((image: HTMLImageElement) => image.naturalWidth), 256);
    await screenshot(page, 'playground-image');

    await page.getByLabel('Model').selectOption('builtin/image-edit');
    await page.getByLabel('Image to edit').setInputFiles({ name: 'source.png', mimeType: 'image/png', buffer: await makeImage('png', 96, 64) });
    await page.getByRole('img', { name: 'The image to edit: source.png' }).waitFor();
    await page.getByLabel('Edit instruction').fill('greyscale');
    await page.getByRole('button', { name: 'Edit image' }).click();
    const edited = page.getByRole('img', { name: 'Edited image: greyscale' });
    await edited.waitFor();
    await waitUntil(() => edited.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), 'the edited image loads');
    await screenshot(page, 'playground-edit');
  });

  test('the playground embeds two texts and shows how alike they are: related texts score above unrelated ones', async () => {
    const { page } = user;
    await page.getByLabel('Model').selectOption('builtin/embed');
    // Each comparison replaces the last one shown: read the figure once it is there and new.
    let shown = '';
    const similarityOf = async (first: string, second: string) => {
      await page.getByLabel('First text').fill(first);
      await page.getByLabel('Second text').fill(second);
      await page.getByRole('button', { name: 'Embed and compare' }).click();
      const figure = page.getByRole('definition').first();
      await waitUntil(async () => (await figure.count()) > 0 && (await figure.textContent()) !== shown, 'the comparison is shown');
      shown = (await figure.textContent()) ?? '';
      return Number(shown);
    };
    const related = await similarityOf('the cat sat on the mat', 'a cat sitting on a mat');
    const unrelated = await similarityOf('the cat sat on the mat', 'quarterly revenue grew');
    assert.ok(related > unrelated, `related ${related} above unrelated ${unrelated}`);
    assert.ok(related > 0 && related <= 1);
    assert.equal(await page.getByRole('term').nth(1).textContent(), 'Dimensions');
    await screenshot(page, 'playground-embeddings');
  });

  test('the models view lists the built-in models with capabilities, prices and example requests', async () => {
    const { page } = user;
    await openNav(page, 'Models');
    const echo = page.getByRole('article', { name: 'builtin/echo' });
    const capabilities = echo.getByRole('list', { name: 'Capabilities' });
    for (const capability of ['Chat', 'Streaming', 'Tools', 'JSON schema']) await capabilities.getByText(capability, { exact: true }).waitFor();
    await echo.getByText('$0.50 / 1M tokens').waitFor();
    await echo.getByText('Example requests').click();
    const code = echo.locator('pre');
    await waitForText(code.first(), /\/v1\/chat\/completions[\s\S]*\$GATEWAY_API_KEY/);
    assert.ok((await code.first().textContent())!.includes(gateway.origin), 'the examples use this origin');
    await echo.getByRole('button', { name: 'Anthropic Messages' }).click();
    await waitForText(code.first(), /\/v1\/messages[\s\S]*x-api-key: \$GATEWAY_API_KEY[\s\S]*anthropic-version/);
    await echo.getByRole('button', { name: 'Gemini generateContent' }).click();
    await waitForText(code.first(), /\/v1beta\/models\/builtin\/echo:generateContent[\s\S]*x-goog-api-key/);
    await waitForText(code.nth(1), /GoogleGenAI/);
    await echo.getByRole('button', { name: 'OpenAI Responses' }).click();
    await waitForText(code.nth(1), /responses\.create/);

    const image = page.getByRole('article', { name: 'builtin/image', exact: true });
    await image.getByRole('list', { name: 'Capabilities' }).getByText('Image generation').waitFor();
    await image.getByText('Example requests').click();
    await waitForText(image.locator('pre').first(), /\/v1\/images\/generations/);
    const edit = page.getByRole('article', { name: 'builtin/image-edit' });
    await edit.getByText('Example requests').click();
    await waitForText(edit.locator('pre').first(), /\/v1\/images\/edits[\s\S]*image=@input\.png/);

    assert.ok(!(await page.content()).includes(gateway.apiKey), 'the signed-in key never appears in the page');
    await screenshot(page, 'models');
  });

  test('the admin creates an account, sets a permission and a limit, and sees them listed', async () => {
    const admin = await openPage(browser);
    const { page } = admin;
    await signIn(page, gateway.origin, gateway.adminKey);
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await page.getByLabel('Account name').fill('Research team');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account: Research team' }).waitFor();

    await page.getByLabel('Allowed models (one per line)').fill('builtin/echo\nbuiltin/image');
    const capabilities = page.getByRole('group', { name: 'Allowed capabilities' });
    await capabilities.getByLabel('Chat').check();
    await capabilities.getByLabel('Image generation').check();
    await page.getByLabel('Max output tokens per request').fill('2000');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByRole('status').filter({ hasText: 'Permissions saved.' }).waitFor();
    await page.getByLabel('Requests per minute').fill('60');
    await page.getByLabel('Spend per day (USD)').fill('5');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByRole('status').filter({ hasText: 'Limits saved.' }).waitFor();

    await page.getByLabel('Key name').fill('team-key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Key “team-key” created' });
    const teamSecret = await dialog.getByLabel('New key secret').inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /team-key/ }).waitFor();
    await screenshot(page, 'account');

    await page.getByRole('link', { name: '← All accounts' }).click();
    const row = page.getByRole('row', { name: /Research team/ });
    await waitForText(row, /Models: builtin\/echo, builtin\/image/);
    const listed = (await row.textContent()) ?? '';
    assert.match(listed, /Capabilities: Chat, Image generation/);
    assert.match(listed, /Max output tokens: 2,000/);
    assert.match(listed, /60 requests\/min/);
    assert.match(listed, /\$5(\.00)?\/day/);
    await screenshot(page, 'accounts');

    // The account's new key works within its permissions: it sees only the models allowed.
    const models = await sdk(teamSecret).models.list();
    assert.deepEqual(models.data.map((model) => model.id).sort(), ['builtin/echo', 'builtin/image']);

    // Disabling the account: its key is refused at sign-in with the gateway's own 403 message.
    await row.getByRole('link', { name: 'Research team' }).click();
    await page.getByRole('button', { name: 'Disable account' }).click();
    await page.getByRole('dialog', { name: 'Disable account “Research team”?' }).getByRole('button', { name: 'Disable account' }).click();
    await page.getByText(/Disabled since/).waitFor();
    const outsider = await openPage(browser);
    await signIn(outsider.page, gateway.origin, teamSecret);
    const refusal = await waitForText(outsider.page.getByRole('alert'), /\S/);
    assert.match(refusal, /disabled/i);
    await outsider.context.close();

    // The admin's usage has an account filter; the playground explains it needs an account key.
    await openNav(page, 'Usage');
    await page.getByLabel('Account').selectOption({ label: 'default' });
    await page.getByRole('status').filter({ hasText: 'Usage loaded.' }).waitFor();
    await page.getByRole('region', { name: 'Recent requests' }).getByRole('row').nth(1).waitFor();
    await screenshot(page, 'admin-usage');
    await openNav(page, 'Playground');
    await page.getByText('The playground needs an account key.').waitFor();
    assert.deepEqual(unexpectedProblems(admin.problems), []);
    await admin.context.close();
  });

  test("the batches view shows an Anthropic batch's progress to its end, its counts, and downloads its results with the key in a header; the admin sees every account's", async () => {
    const { page } = user;
    await openNav(page, 'Batches');
    await page.getByRole('heading', { level: 1, name: 'Batches' }).waitFor();
    await page.getByText('No batches yet.').waitFor();
    await screenshot(page, 'batches-empty');

    const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
    const ask = (text: string) => ({ model: 'builtin/echo', max_tokens: 64, messages: [{ role: 'user' as const, content: text }] });
    const batch = await anthropic.messages.batches.create({
      requests: [
        { custom_id: 'first', params: ask('One small batch line') },
        { custom_id: 'second', params: ask('Another batch line') },
        { custom_id: 'third', params: ask('The last batch line') },
      ],
    });
    // Refresh shows the new batch; while it runs the list is read again every two seconds, so it ends on screen.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const bar = page.getByRole('progressbar', { name: `Progress of batch ${batch.id}` });
    await bar.waitFor({ timeout: 10_000 });
    assert.equal(await bar.getAttribute('aria-valuemin'), '0');
    assert.equal(await bar.getAttribute('aria-valuemax'), '3');
    await waitUntil(async () => (await bar.getAttribute('aria-valuenow')) === '3', 'the progress bar at 3 of 3', 20_000);
    assert.equal(await bar.getAttribute('aria-valuetext'), '3 of 3 done (100%)');
    const row = page.getByRole('row').filter({ hasText: batch.id });
    await waitForText(row, /Ended/);
    const text = (await row.textContent()) ?? '';
    assert.match(text, /3 of 3 done \(100%\)/);
    assert.match(text, /3 succeeded/);
    assert.match(text, /Anthropic/);
    await screenshot(page, 'batches');

    const requests: Array<{ url: string; authorization: string | undefined }> = [];
    page.on('request', (request) => {
      if (request.url().includes('/results')) requests.push({ url: request.url(), authorization: request.headers().authorization });
    });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download results of batch ${batch.id}` }).click()]);
    assert.equal(download.suggestedFilename(), `${batch.id}-results.jsonl`);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; result: { type: string } });
    assert.deepEqual(lines.map((line) => [line.custom_id, line.result.type]), [['first', 'succeeded'], ['second', 'succeeded'], ['third', 'succeeded']]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].authorization, `Bearer ${gateway.apiKey}`, 'the key goes in the Authorization header');
    assert.ok(!requests[0].url.includes(gateway.apiKey), 'never in the URL');

    // The admin sees every account's batches, with an Account column, and may pick one account.
    const admin = await openPage(browser);
    await signIn(admin.page, gateway.origin, gateway.adminKey);
    await admin.page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await openNav(admin.page, 'Batches');
    const adminRow = admin.page.getByRole('row').filter({ hasText: batch.id });
    await waitForText(adminRow, /Ended/);
    assert.ok(await admin.page.getByRole('columnheader', { name: 'Account' }).isVisible());
    assert.match((await adminRow.textContent()) ?? '', /default.*3 of 3 done/);
    await admin.page.getByLabel('Account').selectOption({ label: 'default' });
    await admin.page.getByRole('status').filter({ hasText: 'Batches loaded.' }).waitFor();
    await adminRow.waitFor();
    await screenshot(admin.page, 'admin-batches');
    assert.deepEqual(unexpectedProblems(admin.problems), []);
    assert.deepEqual(cspProblems(user.problems), []);
    await admin.context.close();
  });

  test('a wrong key, a revoked key, a key revoked mid-session and an unreachable gateway each get a clear message', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, gateway.origin, 'sk-not-a-real-key');
    await waitForText(page.getByRole('alert'), /This key was not accepted: it is wrong, revoked or expired\./);
    await screenshot(page, 'sign-in-refused');

    await page.getByLabel('API key').fill(revokedSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForText(page.getByRole('alert'), /This key was not accepted: it is wrong, revoked or expired\./);

    // Signed in, then the key is revoked elsewhere: the next call signs the tab out with an explanation.
    const created = await fetch(`${gateway.origin}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short-lived' }),
    }).then((response) => response.json() as Promise<{ id: string; key: string }>);
    await signIn(page, gateway.origin, created.key);
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    // The heading shows before the page's own calls answer: revoking while one is in flight would sign the tab
    // out before the click below (the nav it clicks is then gone), so the revoke waits until the page is idle.
    await page.waitForLoadState('networkidle');
    await fetch(`${gateway.origin}/v1/keys/${created.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${gateway.apiKey}` } });
    await openNav(page, 'Keys');
    await waitForText(page.getByRole('alert'), /Your key is no longer valid \(it was revoked or has expired\)\. Sign in with another key\./);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'signing out clears the session');

    await page.route('**/v1/me', (route) => route.abort());
    await page.getByLabel('API key').fill(gateway.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForText(page.getByRole('alert'), /cannot be reached/);
    await screenshot(page, 'sign-in-unreachable');
    assert.deepEqual(unexpectedProblems(problems), []);
    await context.close();
  });

  test('/docs/ renders Swagger UI with the spec title, and no page breaks the CSP', async () => {
    const { page, context, problems } = await openPage(browser);
    const spec = parse(await readFile(new URL('../openapi/openapi.yaml', import.meta.url), 'utf8')) as { info: { title: string } };
    await page.goto(`${gateway.origin}/docs/`);
    await waitForText(page.locator('.swagger-ui .info .title'), new RegExp(spec.info.title));
    await page.locator('.opblock').first().waitFor();
    // "Try it out" goes to this gateway (the CSP allows no other origin), not to the spec's example server.
    assert.match((await page.locator('.servers select').textContent()) ?? '', new RegExp(`${gateway.origin.replaceAll('.', '\\.')} - This gateway`));
    await screenshot(page, 'docs', false);
    assert.deepEqual(cspProblems(problems), []);
    assert.deepEqual(unexpectedProblems(problems), []);
    await context.close();
    assert.deepEqual(cspProblems(user.problems), []);
    assert.deepEqual(unexpectedProblems(user.problems), []);
  });

  test('at phone width every view fits the screen', async () => {
    const { page, context, problems } = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, gateway.origin, gateway.apiKey);
    for (const [name, heading] of [
      ['Usage', 'Usage'],
      ['Keys', 'API keys'],
      ['Batches', 'Batches'],
      ['Models', 'Models'],
      ['Playground', 'Playground'],
    ] as const) {
      await openNav(page, name);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (name === 'Usage') await page.getByRole('region', { name: 'Recent requests' }).waitFor();
      if (name === 'Batches') await page.getByRole('region', { name: 'Batches' }).waitFor();
      if (name === 'Models') await page.getByRole('article', { name: 'builtin/echo' }).getByText('Example requests').click();
      assert.ok(await fitsViewportWidth(page), `${name} has no horizontal overflow at 390 px`);
      await screenshot(page, `phone-${name.toLowerCase()}`);
    }
    assert.deepEqual(unexpectedProblems(problems), []);
    await context.close();
  });

  test('overview: the usage page with a week of data, for the README', async () => {
    const me = (await fetch(`${gateway.origin}/v1/me`, { headers: { authorization: `Bearer ${gateway.apiKey}` } }).then((response) => response.json())) as {
      key: { id: string; account_id: string };
    };
    await seedUsageHistory(gateway.dataDir, { accountId: me.key.account_id, keyId: me.key.id });
    const { page } = user;
    await openNav(page, 'Usage');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('status').filter({ hasText: 'Usage loaded.' }).waitFor();
    await screenshot(page, 'usage');
    await screenshot(page, 'overview', false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'overview-dark', false);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
