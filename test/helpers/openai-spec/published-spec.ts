// OpenAI's published OpenAPI document (test/fixtures/openai-spec/), parsed once per machine. Parsing its
// 2.9 MB of YAML takes seconds, and every test process that starts a gateway needs it, so the parsed
// document is kept as JSON under node_modules/.cache, named by the YAML's hash: reading that back is a
// few milliseconds, and a changed YAML is a new name, so a stale copy is never read.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../../server/project-root.js';

export const publishedSpecPath = join(projectRoot, 'test/fixtures/openai-spec/openai-openapi.yaml');
const cacheDir = join(projectRoot, 'node_modules/.cache/openai-published-spec');

/** The parts of the document the oracle reads. */
export interface PublishedSpec {
  info: { version: string };
  paths: Record<string, Record<string, PublishedOperation>>;
  components: { schemas: Record<string, Record<string, unknown>>; parameters?: Record<string, PublishedParameter> };
}

export interface PublishedOperation {
  operationId?: string;
  /** A `$ref` to `components.parameters`, or the parameter itself. */
  parameters?: Array<PublishedParameter | { $ref: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
  'x-oaiMeta'?: { examples?: PublishedExample | PublishedExample[] };
}

export interface PublishedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface PublishedExample {
  title?: string;
  response?: string;
}

let loaded: PublishedSpec | undefined;

/** The document as OpenAI published it (no changes); the same object on every call. */
export function publishedSpec(): PublishedSpec {
  if (loaded) return loaded;
  const yamlText = readFileSync(publishedSpecPath, 'utf8');
  const cachePath = join(cacheDir, `${createHash('sha256').update(yamlText).digest('hex').slice(0, 16)}.json`);
  try {
    loaded = JSON.parse(readFileSync(cachePath, 'utf8')) as PublishedSpec;
  } catch {
    loaded = parse(yamlText, { maxAliasCount: -1 }) as PublishedSpec;
    // Written aside and renamed: test processes running side by side never read half a file.
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cachePath}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(loaded));
    renameSync(partial, cachePath);
  }
  return loaded;
}
