import { access } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { GatewayError } from '../http/gateway-error.js';

/** Where scripts/build-console.mjs writes the console and the docs. */
export const defaultDistDir = join(import.meta.dirname, '../../dist');

/**
 * The pages people open in a browser: the console at `/console/` and the API reference at `/docs/`. They
 * are static files built at install time and need no key (the console asks for one and keeps it in the
 * tab's session storage). Only these routes get the browser security headers: API answers are read by
 * SDKs, and the hot path should not carry a dozen headers no client reads.
 */
export async function createBrowserPages(distDir = defaultDistDir): Promise<Router> {
  const pages = express.Router();
  pages.get('/console', redirectToSlash);
  pages.get('/docs', redirectToSlash);
  pages.use('/console', browserHeaders({ inlineStyles: false }), await staticOrMissing(join(distDir, 'console')));
  // Swagger UI writes <style> elements of its own.
  pages.use('/docs', browserHeaders({ inlineStyles: true }), await staticOrMissing(join(distDir, 'docs')));
  // A missing file is a 404 here, not a request for a key further on.
  pages.use(['/console', '/docs'], (req) => {
    throw new GatewayError('not_found', `No file ${req.originalUrl.split('?')[0]}.`, { code: 'unknown_url' });
  });
  return pages;
}

const redirectToSlash: RequestHandler = (req, res, next) => {
  // Express matches `/console/` here too (trailing slashes are optional), and that one is the page itself.
  if (req.path.endsWith('/')) return next();
  // Relative asset paths in the pages resolve against the directory.
  res.redirect(301, `${req.path}/`);
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
