import { readFileSync } from 'node:fs';

/**
 * A secret from the environment: `NAME`, or else the content of the file `NAME_FILE` names (one trailing
 * newline dropped, as `echo` and most secret tools add one). Kubernetes and compose mount secrets as files
 * (`/run/secrets/…`), which keeps them out of `ps`, the process environment and `docker inspect`. Serves
 * the secret settings (`GATEWAY_ADMIN_KEY`, the database and Redis URLs) and every `${NAME}` in the config.
 * Only names asked for are looked up: other `*_FILE` variables (`SSL_CERT_FILE`, …) are not ours to read.
 */
export function readSecret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const path = env[`${name}_FILE`];
  if (!path) return env[name];
  if (env[name]) throw new Error(`both ${name} and ${name}_FILE are set: keep one`);
  try {
    return readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new Error(`${name}_FILE: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
