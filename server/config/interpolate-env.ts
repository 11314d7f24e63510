import { readSecret } from './read-secret.js';

/**
 * Replaces `${NAME}` (or `${NAME:-fallback}`) inside every string of a parsed YAML tree with the
 * environment's value (or the content of the file `NAME_FILE` names: read-secret.ts), so secrets live in
 * the environment or in mounted secret files and not in the config. A variable that is unset
 * and has no fallback is an error naming both the variable and the field that uses it.
 */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, path: string[] = []): unknown {
  if (typeof value === 'string') return interpolateString(value, env, path);
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnv(item, env, [...path, String(index)]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateEnv(item, env, [...path, key])]),
    );
  }
  return value;
}

const placeholder = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

function interpolateString(text: string, env: NodeJS.ProcessEnv, path: string[]): string {
  return text.replace(placeholder, (_match, name: string, fallback: string | undefined) => {
    const resolved = readSecret(env, name) ?? fallback;
    if (resolved === undefined) {
      throw new ConfigError(`${formatPath(path)}: environment variable ${name} is not set`);
    }
    return resolved;
  });
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number' || /^\d+$/.test(String(key))) return `${text}[${String(key)}]`;
    return text ? `${text}.${String(key)}` : String(key);
  }, '');
}
