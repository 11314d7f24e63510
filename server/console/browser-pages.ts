import { access } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { GatewayError } from '../core/gateway-error.js';
import { projectRoot } from '../project-root.js';

/** Where scripts/build-console.mjs writes the console and the docs. */
export const defaultDistDir = join(projectRoot, 'dist');

/**
 * The pages people open in a browser: the console at `/console/` and the API reference at `/docs/`. They
 * are static files built at install time and need no key (the console asks for one and keeps it in the
 * tab's session storage). Only these routes get the browser security headers: API answers are read by
 * SDKs, and the hot path should not carry a dozen headers no client reads. Each is mounted at its own
 * prefix, so an API request passes them with one path comparison each.
 */
export async function mountBrowserPages(app: Express, distDir = defaultDistDir): Promise<void> {
  app.use('/console', await browserPage(join(distDir, 'console'), { inlineStyles: false }));
  // Swagger UI writes <style> elements of its own.
  app.use('/docs', await browserPage(join(distDir, 'docs'), { inlineStyles: true }));
}

async function browserPage(dir: string, options: { inlineStyles: boolean }): Promise<Router> {
  const page = express.Router();
  page.use(redirectToSlash, browserHeaders(options), await staticOrMissing(dir));
  // A missing file is a 404 here, not a request for a key further on.
  page.use((req) => {
    throw new GatewayError('not_found', `No file ${req.originalUrl.split('?')[0]}.`, { code: 'unknown_url' });
  });
  return page;
}

/** `/console` becomes `/console/`: relative asset paths in the pages resolve against the directory. */
const redirectToSlash: RequestHandler = (req, res, next) => {
  const url = new URL(req.originalUrl, 'http://gateway');
  if (req.path !== '/' || url.pathname.endsWith('/')) return next();
  res.redirect(301, `${url.pathname}/${url.search}`);
};

function browserHeaders({ inlineStyles }: { inlineStyles: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: inlineStyles ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        // Images the playground makes arrive as base64 (`data:`) or are shown from a Blob.
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The pages load nothing from elsewhere; no referrer leaves them.
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/**
 * The built files, or, when the build has not run, a page saying how to build them rather than a bare 404.
 * Hashed assets are cached for a year; the HTML is revalidated so a new build shows at once.
 */
async function staticOrMissing(dir: string): Promise<RequestHandler> {
  const built = await access(join(dir, 'index.html')).then(
    () => true,
    () => false,
  );
  if (!built) {
    return (_req, res) => {
      res.status(503).type('text/plain').send('This page is not built. Run `npm run build` (npm install does it), then restart the gateway.\n');
    };
  }
  return express.static(dir, {
    index: 'index.html',
    redirect: false,
    setHeaders(res, path) {
      res.setHeader('cache-control', path.endsWith('.html') ? 'no-cache' : /-[A-Z0-9]{8}\./.test(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
}
