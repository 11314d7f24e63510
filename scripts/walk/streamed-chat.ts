import { request } from 'node:http';

export interface StreamedChat {
  /** The whole body, once the stream ended. */
  done: Promise<string>;
  /** Resolves once the body so far contains `text`. */
  received(text: string): Promise<void>;
}

/**
 * `POST /v1/chat/completions` with `stream: true`, as an OpenAI client sends it, on a connection of its
 * own; `onData` sees every piece of the body as the socket delivers it, before anything else does.
 */
export function streamedChat(origin: string, apiKey: string, model: string, onData: (piece: string) => void): StreamedChat {
  let body = '';
  let waiting: Array<{ text: string; resolve: () => void }> = [];
  const done = new Promise<string>((resolve, reject) => {
    const req = request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`the gateway answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (piece: string) => {
        onData(piece);
        body += piece;
        const met = waiting.filter((wait) => body.includes(wait.text));
        waiting = waiting.filter((wait) => !body.includes(wait.text));
        for (const wait of met) wait.resolve();
      });
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.end(JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Hello, how are you?' }] }));
  });
  return {
    done,
    received: (text) => (body.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ text, resolve }))),
  };
}
