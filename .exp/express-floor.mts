import express from 'express';
import http from 'node:http';
import { Agent, request } from 'undici';
const upstreamPort = Number(process.argv[2]);
const mode = process.argv[3];
const port = Number(process.argv[4]);
const agent = new Agent({ connections: 128, pipelining: 1 });
async function readJson(req: http.IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString());
}
async function callUp(body: unknown) {
  const upstream = await request(`http://127.0.0.1:${upstreamPort}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify(body), dispatcher: agent });
  return upstream.body.json();
}
const app = express(); if (process.env.NOETAG) { app.set('etag', false); app.disable('x-powered-by'); }
if (mode === 'express') app.use(express.json({ limit: '10mb' }));
app.post('/v1/chat/completions', async (req, res) => {
  const body = mode === 'express' ? req.body : await readJson(req);
  res.json(await callUp(body));
});
if (mode === 'raw') {
  http.createServer(async (req, res) => {
    const out = JSON.stringify(await callUp(await readJson(req)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  }).listen(port, '127.0.0.1');
} else if (mode === 'proto') {
  http.createServer(async (req, res) => {
    Object.setPrototypeOf(req, app.request); Object.setPrototypeOf(res, app.response);
    (req as any).res = res; (res as any).req = req; (res as any).locals = Object.create(null);
    const body = await readJson(req);
    (res as any).json(await callUp(body));
  }).listen(port, '127.0.0.1');
} else if (mode === 'proto-raw') {
  http.createServer(async (req, res) => {
    Object.setPrototypeOf(req, app.request); Object.setPrototypeOf(res, app.response);
    (req as any).res = res; (res as any).req = req; (res as any).locals = Object.create(null);
    const out = JSON.stringify(await callUp(await readJson(req)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  }).listen(port, '127.0.0.1');
} else if (mode === 'json-only') {
  const json = (app.response as any).json;
  http.createServer(async (req, res) => {
    (res as any).req = req; (req as any).app = app; (res as any).app = app;
    const body = await callUp(await readJson(req));
    const out = JSON.stringify(body);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', Buffer.byteLength(out));
    res.end(out);
  }).listen(port, '127.0.0.1');
} else app.listen(port, '127.0.0.1');
