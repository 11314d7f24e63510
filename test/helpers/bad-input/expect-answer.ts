import type { Answer } from './send.js';
import { errorMatchesSchema } from './spec-oracle.js';
import { errorSchemaFor, type Family, type Operation } from './spec-operations.js';

/**
 * What a case may get back. `refuse`: a 4xx (the input is outside the contract); `either`: anything but a
 * 5xx (the input happens to be valid, or its fate depends on data the spec cannot know). Every 4xx must be
 * a JSON error in the family's shape, and match the schema the spec declares for that status.
 */
export interface Expectation {
  verdict: 'refuse' | 'either';
  /** The family whose error shape answers; `any` when a hostile path may land in another family's route. */
  family: Family | 'any';
  operation?: Operation;
}

/** Why an answer breaks the expectation, or undefined when it keeps it. */
export function judgeAnswer(expected: Expectation, answer: Answer): string | undefined {
  const { status } = answer;
  if (status >= 500 || status < 100) return `answered ${status}`;
  if (expected.verdict === 'refuse' && !(status >= 400 && status < 500)) return `answered ${status}, not a 4xx`;
  if (status < 400) return undefined;
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `${status} with content-type '${type}'`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return `${status} with a body that is not JSON: ${answer.body.toString('utf8').slice(0, 200)}`;
  }
  const families: Family[] = expected.family === 'any' ? ['openai', 'anthropic', 'gemini'] : [expected.family];
  const problems = families.map((family) => shapeProblem(family, status, body));
  if (problems.every(Boolean)) return `${status} not in the ${families.join('/')} error shape (${problems.join('; ')}): ${JSON.stringify(body).slice(0, 300)}`;
  const schema = errorSchemaFor(expected.operation, status);
  if (schema && !errorMatchesSchema(schema, body)) return `${status} does not match the spec's error schema: ${JSON.stringify(body).slice(0, 300)}`;
  return undefined;
}

/** The error shapes the families' SDKs parse; admin routes answer in OpenAI's. */
function shapeProblem(family: Family, status: number, body: unknown): string | undefined {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (typeof error !== 'object' || error === null) return 'no error object';
  switch (family) {
    case 'openai':
    case 'admin': {
      const keys = Object.keys(error).sort().join(',');
      if (keys !== 'code,message,param,type') return `openai keys ${keys}`;
      const nullableString = (value: unknown) => value === null || typeof value === 'string';
      return typeof error.message === 'string' && typeof error.type === 'string' && nullableString(error.param) && nullableString(error.code)
        ? undefined
        : 'openai field types';
    }
    case 'anthropic':
      return (body as { type?: unknown }).type === 'error' && typeof error.type === 'string' && typeof error.message === 'string'
        ? undefined
        : 'anthropic fields';
    case 'gemini':
      return error.code === status && typeof error.message === 'string' && typeof error.status === 'string' ? undefined : 'gemini fields';
  }
}

/** Log lines at pino's `error` level or above: a gateway refusing bad input has nothing to log there. */
export function errorLogLines(logs: string[]): string[] {
  return logs.filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return true; // Not pino's JSON: something wrote to the log stream directly.
    }
  });
}
