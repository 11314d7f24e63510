// OpenAI's own examples in its published document, for what the gateway answers: each operation's example
// answers (`x-oaiMeta.examples[].response`: JSON, or an event stream), and the example of every schema
// those answers are built from (`x-oaiMeta.example` of, say, ResponseTextDeltaEvent). What the
// allow-list's test runs through the validator.
import { parse } from 'yaml';
import { publishedSchemaFor, publishedOperations } from './openai-surface.js';
import { publishedSpec, type PublishedExample } from './published-spec.js';

export interface PublishedValueExample {
  /** `<METHOD> <path> "<title>"` (one event of a stream example adds `event <n>`), or `<Schema> example`. */
  source: string;
  schemaName: string;
  value: unknown;
  /** Set when the example is not JSON at all (a missing comma): there is no value to check. */
  unreadable?: string;
}

export function publishedExamples(): PublishedValueExample[] {
  return [...operationExamples(), ...schemaExamples()];
}

function operationExamples(): PublishedValueExample[] {
  const found: PublishedValueExample[] = [];
  for (const [operationId, where] of Object.entries(publishedOperations)) {
    const meta = publishedSpec().paths[where.path]?.[where.method]?.['x-oaiMeta'];
    const examples: PublishedExample[] = meta?.examples === undefined ? [] : Array.isArray(meta.examples) ? meta.examples : [meta.examples];
    for (const example of examples) {
      if (typeof example.response !== 'string') continue;
      const source = `${where.method.toUpperCase()} ${where.path}${example.title ? ` "${example.title}"` : ''}`;
      const streamSchema = publishedSchemaFor(operationId as never, 200, 'text/event-stream');
      const jsonSchema = publishedSchemaFor(operationId as never, 200, 'application/json');
      const frames = streamSchema ? streamFrames(example.response.trim()) : undefined;
      if (frames) frames.forEach((value, index) => found.push({ source: `${source} event ${index}`, schemaName: streamSchema!, value }));
      else if (jsonSchema) found.push({ source, schemaName: jsonSchema, ...readJson(example.response) });
    }
  }
  return found;
}

/**
 * The events of a stream example, or undefined when the example is one JSON answer: frames split at blank
 * lines, each `event: …\ndata: {…}` or bare JSON (chat chunks), with the `...` standing for the frames
 * left out skipped.
 */
function streamFrames(text: string): unknown[] | undefined {
  const frames = text
    .split(/\n\s*\n/)
    .map((frame) => frame.trim())
    .filter((frame) => !/^\.+$/.test(frame));
  if (!/^(event|data):/.test(text)) {
    if (frames.length < 2) return undefined;
    try {
      return frames.map((frame) => JSON.parse(frame) as unknown);
    } catch {
      return undefined; // one JSON answer with blank lines in it
    }
  }
  return frames.map((frame) => JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? frame) as unknown);
}

/**
 * An example answer. A few of OpenAI's are JSON with a trailing comma; those are read as YAML, whose flow
 * style is JSON's and allows one (the values read are the same).
 */
function readJson(text: string): { value: unknown; unreadable?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    try {
      return { value: parse(text) as unknown };
    } catch (error) {
      return { value: undefined, unreadable: (error as Error).message.split('\n')[0]! };
    }
  }
}

/** The examples of every schema the OpenAI-surface answers are made of (found by following `$ref`s). */
function schemaExamples(): PublishedValueExample[] {
  const schemas = publishedSpec().components.schemas;
  const roots = Object.keys(publishedOperations).flatMap((operationId) =>
    (['application/json', 'text/event-stream'] as const).map((mediaType) => publishedSchemaFor(operationId as never, 200, mediaType)),
  );
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name) || !schemas[name]) return;
    reached.add(name);
    JSON.stringify(schemas[name], (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') visit(value.replace('#/components/schemas/', ''));
      return key === 'x-oaiMeta' ? undefined : value;
    });
  };
  for (const root of [...roots, 'ErrorResponse']) if (root) visit(root);
  return [...reached].sort().flatMap((name) => {
    const example = (schemas[name]!['x-oaiMeta'] as { example?: unknown } | undefined)?.example;
    if (typeof example !== 'string') return [];
    // A stream chunk's example may be several chunks in a row.
    const read = streamFrames(example.trim())?.map((value) => ({ value })) ?? [readJson(example)];
    return read.map((one, index) => ({ source: `${name} example${read.length > 1 ? ` ${index}` : ''}`, schemaName: name, ...one }));
  });
}
