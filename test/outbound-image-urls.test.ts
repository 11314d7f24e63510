// Image URLs the gateway fetches for users: an openai-compatible upstream (Ollama, llama.cpp) takes images
// only as data: URLs, so the gateway downloads them first, through a guard that refuses private addresses
// (after DNS, on every redirect), other schemes, large or slow answers and non-images. Real gateways, a
// fake upstream, and small image servers on loopback, which only an allow-list entry makes reachable.
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startUpstreamGateway, tinyPng, type UpstreamGateway } from './helpers/upstream-gateway.js';

type Body = Record<string, any>;

const pngBytes = Buffer.from(tinyPng.split(',')[1]!, 'base64');
const chatReply = { fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' } as const;
/** Translated requests (Anthropic clients) always stream from the upstream. */
const streamedChatReply = { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' } as const;
/** Small limits so the tests reach them quickly. */
const limits = { max_bytes: 1024, timeout_ms: 1000, max_redirects: 2, max_urls_per_request: 2 };
const vision = { capabilities: ['chat', 'streaming', 'vision'] };

/** An HTTP server on one loopback address that records the paths asked for. */
interface ImageServer {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

async function startImageServer(host: string, routes: Record<string, (response: ServerResponse, origin: string) => void>): Promise<ImageServer> {
  const hits: string[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    hits.push(request.url!);
    const route = routes[request.url!];
    if (route) route(response, origin);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, () => resolve()));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const imageRoutes: Record<string, (response: ServerResponse, origin: string) => void> = {
  '/cat.png': (response) => response.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes),
  '/untyped': (response) => response.writeHead(200).end(pngBytes),
  '/page.html': (response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not an image</html>'),
  // Declares more than max_bytes and then stalls: only a check of content-length refuses it at once.
  '/declared-big.png': (response) => {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(4096) });
    response.write(pngBytes);
  },
  // No content-length (chunked): only counting the bytes read stops it.
  '/chunked-big.png': (response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    for (let i = 0; i < 8; i++) response.write(Buffer.alloc(512, i));
    response.end();
  },
  '/never': () => {},
  '/redirect-home': (response) => response.writeHead(302, { location: '/cat.png' }).end(),
  '/redirect-loop': (response) => response.writeHead(302, { location: '/redirect-loop' }).end(),
};

/** The error a promise rejects with. */
async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the request to be refused');
}

const askAbout = (url: string, options: { stream?: boolean } = {}) => ({
  model: 'test-model',
  stream: options.stream,
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is this?' }, { type: 'image_url' as const, image_url: { url, detail: 'low' as const } }] }],
});

const sentImageUrl = (setup: UpstreamGateway) => (setup.upstream.requests.at(-1)!.json as Body).messages[0].content[1].image_url.url as string;

let images: ImageServer;

before(async () => {
  images = await startImageServer('127.0.0.1', imageRoutes);
});
after(() => images.close());

describe('image URLs with 127.0.0.1 allow-listed', () => {
  let setup: UpstreamGateway;
  let anthropic: Anthropic;
  /** On 127.0.0.2, which the allow-list leaves out; Linux answers on all of 127/8. Absent where it cannot bind. */
  let elsewhere: ImageServer | undefined;

  before(async () => {
    setup = await startUpstreamGateway('openai-compatible', { model: vision, config: { outbound: { allow: ['127.0.0.1'], ...limits } } });
    anthropic = new Anthropic({ apiKey: setup.gateway.apiKey, baseURL: setup.gateway.origin, maxRetries: 0 });
    elsewhere = await startImageServer('127.0.0.2', imageRoutes).catch(() => undefined);
    imageRoutes['/redirect-away'] = (response) => response.writeHead(302, { location: `${elsewhere?.origin}/cat.png` }).end();
  });
  after(async () => {
    await setup.close();
    await elsewhere?.close();
  });

  test('reaches the upstream as a data: URL holding the image bytes (Chat Completions, passed through)', async () => {
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(askAbout(`${images.origin}/cat.png`));
    assert.equal(sentImageUrl(setup), tinyPng);
    assert.equal((setup.upstream.requests.at(-1)!.json as Body).messages[0].content[1].image_url.detail, 'low', 'the rest of the part is kept');
  });

  test('an Anthropic Messages url image source is inlined the same way (translated)', async () => {
    setup.upstream.enqueue(streamedChatReply);
    await anthropic.messages.create({
      model: 'test-model',
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: `${images.origin}/cat.png` } }, { type: 'text', text: 'What is this?' }] }],
    });
    const parts = (setup.upstream.requests.at(-1)!.json as Body).messages[0].content as Body[];
    assert.equal(parts.find((part) => part.type === 'image_url')!.image_url.url, tinyPng);
  });

  test('an image served without a content type is typed by its bytes', async () => {
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(askAbout(`${images.origin}/untyped`));
    assert.equal(sentImageUrl(setup), tinyPng);
  });

  test('a redirect within the allow-list is followed', async () => {
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(askAbout(`${images.origin}/redirect-home`));
    assert.equal(sentImageUrl(setup), tinyPng);
  });

  test('a redirect to an address the allow-list leaves out is refused without connecting to it', async (t) => {
    if (!elsewhere) return t.skip('cannot listen on 127.0.0.2 here');
    const before = setup.upstream.requests.length;
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/redirect-away`)));
    assert.equal(error.status, 400);
    assert.match(error.message, /image URL points to a private address \(host '127\.0\.0\.2'\)/);
    assert.deepEqual(elsewhere.hits, [], 'nothing reached 127.0.0.2');
    assert.equal(setup.upstream.requests.length, before, 'the upstream was never called');
  });

  test('more redirects than max_redirects are refused', async () => {
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/redirect-loop`)));
    assert.equal(error.status, 400);
    assert.match(error.message, /image URL redirected more than 2 times/);
  });

  test('an image whose content-length passes max_bytes is refused before its body arrives', async () => {
    // The server stalls after 70 of its declared 4096 bytes: reading on would end in the time limit instead.
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/declared-big.png`)));
    assert.equal(error.status, 400);
    assert.match(error.message, /image is larger than 1024 bytes/);
  });

  test('an image sent without content-length is cut off once it passes max_bytes', async () => {
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/chunked-big.png`)));
    assert.equal(error.status, 400);
    assert.match(error.message, /image is larger than 1024 bytes/);
  });

  test('a server that never answers gives a 400 once timeout_ms has passed', async () => {
    const started = performance.now();
    // The client gives up well after the gateway should have: without the limit this fails instead of hanging.
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/never`), { timeout: limits.timeout_ms + 4000 }));
    const elapsed = performance.now() - started;
    assert.equal(error.status, 400);
    assert.match(error.message, /image URL did not answer within 1000 ms/);
    assert.ok(elapsed >= limits.timeout_ms - 50 && elapsed < limits.timeout_ms + 3000, `answered after ${Math.round(elapsed)} ms`);
  });

  test('a body that is not an image is refused', async () => {
    const error = await caught(setup.openai.chat.completions.create(askAbout(`${images.origin}/page.html`)));
    assert.equal(error.status, 400);
    assert.match(error.message, /content type 'text\/html', which is not an image/);
  });

  test('file: and ftp: URLs are refused; data: URLs are already inline and go on untouched', async () => {
    for (const url of ['file:///etc/passwd', `ftp://127.0.0.1/cat.png`]) {
      const error = await caught(setup.openai.chat.completions.create(askAbout(url)));
      assert.equal(error.status, 400, url);
      assert.match(error.message, /only http and https image URLs are accepted/, url);
    }
    setup.upstream.enqueue(chatReply);
    const hits = images.hits.length;
    await setup.openai.chat.completions.create(askAbout(tinyPng));
    assert.equal(sentImageUrl(setup), tinyPng);
    assert.equal(images.hits.length, hits, 'nothing was fetched');
  });

  test('more distinct image URLs than max_urls_per_request are refused before any is fetched', async () => {
    const hits = images.hits.length;
    const urls = ['/cat.png', '/untyped', '/cat.png', '/redirect-home'].map((path) => `${images.origin}${path}`);
    const content = urls.map((url) => ({ type: 'image_url' as const, image_url: { url } }));
    const error = await caught(setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content }] }));
    assert.equal(error.status, 400);
    assert.match(error.message, /3 image URLs; the gateway fetches at most 2 per request/);
    assert.equal(error.param, 'messages[0].content[3].image_url.url', 'the first URL past the limit');
    assert.equal(images.hits.length, hits, 'nothing was fetched');
  });

  test('a streamed request is refused with a plain 400 before any stream starts', async () => {
    const error = await caught(setup.openai.chat.completions.create({ ...askAbout(`${images.origin}/page.html`), stream: true }));
    assert.equal(error.status, 400);
    assert.match(error.message, /not an image/);
  });
});

describe('image URLs with nothing allow-listed (the default)', () => {
  let setup: UpstreamGateway;

  before(async () => {
    setup = await startUpstreamGateway('openai-compatible', { model: vision });
  });
  after(() => setup.close());

  /** Refused in OpenAI's error shape, naming the field, with the image server and the upstream untouched. */
  async function assertRefusedAsPrivate(url: string, host: string) {
    const [hits, calls] = [images.hits.length, setup.upstream.requests.length];
    const error = await caught(setup.openai.chat.completions.create(askAbout(url)));
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.param, 'messages[0].content[1].image_url.url');
    assert.match(error.message, new RegExp(`image URL points to a private address \\(host '${host.replace(/[.[\]]/g, '\\$&')}'\\)`));
    assert.equal(images.hits.length, hits, 'the image server was not asked');
    assert.equal(setup.upstream.requests.length, calls, 'the upstream was never called');
  }

  test('a loopback IP is refused and the upstream is never called', async () => {
    await assertRefusedAsPrivate(`${images.origin}/cat.png`, '127.0.0.1');
  });

  test('a name that resolves to loopback (localhost) is refused after DNS resolution', async () => {
    await assertRefusedAsPrivate(`${images.origin.replace('127.0.0.1', 'localhost')}/cat.png`, 'localhost');
  });

  test('an IPv4-mapped IPv6 literal of loopback is refused', async () => {
    const port = new URL(images.origin).port;
    // The URL parser writes [::ffff:127.0.0.1] as [::ffff:7f00:1].
    await assertRefusedAsPrivate(`http://[::ffff:127.0.0.1]:${port}/cat.png`, '[::ffff:7f00:1]');
  });

  test('the cloud metadata service is refused by address and by name, without waiting for a connection', async () => {
    const started = performance.now();
    await assertRefusedAsPrivate('http://169.254.169.254/latest/meta-data/', '169.254.169.254');
    await assertRefusedAsPrivate('http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal');
    assert.ok(performance.now() - started < 5000, 'refused before any connection attempt (the default time limit is 10 s)');
  });

  test("Anthropic Messages clients get the refusal in Anthropic's error shape", async () => {
    const anthropic = new Anthropic({ apiKey: setup.gateway.apiKey, baseURL: setup.gateway.origin, maxRetries: 0 });
    const calls = setup.upstream.requests.length;
    const error = await caught(
      anthropic.messages.create({
        model: 'test-model',
        max_tokens: 50,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: `${images.origin}/cat.png` } }] }],
      }),
    );
    assert.ok(error instanceof Anthropic.BadRequestError, String(error));
    assert.equal((error.error as Body).type, 'error');
    assert.equal((error.error as Body).error.type, 'invalid_request_error');
    assert.match((error.error as Body).error.message, /image URL points to a private address/);
    assert.equal(setup.upstream.requests.length, calls, 'the upstream was never called');
  });
});

describe('upstreams that fetch image URLs themselves get them unchanged', () => {
  test('openai: the URL goes on as the client sent it, nothing is fetched', async () => {
    const setup = await startUpstreamGateway('openai');
    try {
      const hits = images.hits.length;
      setup.upstream.enqueue(chatReply);
      await setup.openai.chat.completions.create(askAbout(`${images.origin}/cat.png`));
      assert.equal(sentImageUrl(setup), `${images.origin}/cat.png`);
      assert.equal(images.hits.length, hits);
    } finally {
      await setup.close();
    }
  });

  test('anthropic: the url image source goes on unchanged', async () => {
    const setup = await startUpstreamGateway('anthropic');
    try {
      setup.upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
      const anthropic = new Anthropic({ apiKey: setup.gateway.apiKey, baseURL: setup.gateway.origin, maxRetries: 0 });
      const source = { type: 'url' as const, url: `${images.origin}/cat.png` };
      await anthropic.messages.create({ model: 'test-model', max_tokens: 50, messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
      assert.deepEqual((setup.upstream.requests.at(-1)!.json as Body).messages[0].content[0].source, source);
    } finally {
      await setup.close();
    }
  });
});
