// CORS: off unless configured (no Access-Control-* header at all, so a page of another origin cannot read
// an answer), and for configured origins a preflight answered before authentication, the SDKs' headers
// allowed, and the gateway's own headers readable. Checked on the wire and from a real Chromium page
// served on another origin.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { configSchema } from '../server/config/config-schema.js';
import { defaultConfig } from '../server/config/default-config.js';
import { launchChromium } from './helpers/console-browser.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';

const appOrigin = 'http://app.example';
const chat = { model: defaultConfig.models[0]!.id, messages: [{ role: 'user', content: 'Hello' }] };

/** The preflight a browser sends before the OpenAI SDK's POST. */
function preflight(gateway: TestGateway, origin: string): Promise<Response> {
  return fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,x-stainless-os,x-stainless-retry-count',
    },
  });
}

function post(gateway: TestGateway, origin: string): Promise<Response> {
  return fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { origin, authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(chat),
  });
}

function accessControlHeaders(response: Response): string[] {
  const names: string[] = [];
  response.headers.forEach((_value, name) => {
    if (name.startsWith('access-control-')) names.push(name);
  });
  return names;
}

describe('by default', () => {
  let gateway: TestGateway;
  before(async () => (gateway = await startGateway()));
  after(() => gateway.close());

  test('no Access-Control header is sent, to a preflight or to a request from another origin', async () => {
    const answer = await post(gateway, appOrigin);
    assert.equal(answer.status, 200);
    assert.deepEqual(accessControlHeaders(answer), []);
    const asked = await preflight(gateway, appOrigin);
    assert.deepEqual(accessControlHeaders(asked), []);
    assert.notEqual(asked.status, 204);
  });
});

describe('with allowed_origins', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startGateway({ config: configSchema.parse({ ...testConfig, cors: { allowed_origins: [appOrigin], max_age_seconds: 300 } }) });
  });
  after(() => gateway.close());

  test("a preflight from an allowed origin is answered before authentication, with the SDK's headers allowed", async () => {
    const asked = await preflight(gateway, appOrigin);
    assert.equal(asked.status, 204);
    assert.equal(asked.headers.get('access-control-allow-origin'), appOrigin);
    assert.match(asked.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(asked.headers.get('access-control-allow-headers'), 'authorization,content-type,x-stainless-os,x-stainless-retry-count');
    assert.equal(asked.headers.get('access-control-max-age'), '300');
  });

  test('an answer to an allowed origin names it, and lets the page read the request ID', async () => {
    const answer = await post(gateway, appOrigin);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), appOrigin);
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
    assert.match(answer.headers.get('vary') ?? '', /origin/i);
  });

  test('another origin gets no Access-Control-Allow-Origin', async () => {
    assert.equal((await preflight(gateway, 'http://evil.example')).headers.get('access-control-allow-origin'), null);
    assert.equal((await post(gateway, 'http://evil.example')).headers.get('access-control-allow-origin'), null);
  });
});

describe('from a browser page on another origin', () => {
  let browser: Browser;
  let page: Server;
  let pageOrigin: string;
  before(async () => {
    browser = await launchChromium();
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    page.listen(0, '127.0.0.1');
    await once(page, 'listening');
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  });
  after(async () => {
    await browser.close();
    page.close();
  });

  /** What a page's fetch of a chat completion (as the OpenAI SDK sends it) gets: the model's reply, or the browser's refusal. */
  async function chatFromPage(gateway: TestGateway): Promise<string> {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(pageOrigin);
      return await tab.evaluate(
        async ({ url, key, body }) => {
          try {
            const response = await fetch(url, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-stainless-os': 'Unknown' },
              body,
            });
            const json = (await response.json()) as { choices: Array<{ message: { content: string } }> };
            return `${response.headers.get('x-request-id') ? 'id ' : ''}${json.choices[0]!.message.content.length > 0 ? 'answered' : 'empty'}`;
          } catch (error) {
            return `refused: ${String(error)}`;
          }
        },
        { url: `${gateway.origin}/v1/chat/completions`, key: gateway.apiKey, body: JSON.stringify(chat) },
      );
    } finally {
      await context.close();
    }
  }

  test('the default gateway is out of reach, and one that allows the origin answers it', async () => {
    const closed = await startGateway();
    const open = await startGateway({ config: configSchema.parse({ ...testConfig, cors: { allowed_origins: [pageOrigin] } }) });
    try {
      assert.match(await chatFromPage(closed), /^refused: TypeError: Failed to fetch/);
      assert.equal(await chatFromPage(open), 'id answered');
    } finally {
      await closed.close();
      await open.close();
    }
  });
});
