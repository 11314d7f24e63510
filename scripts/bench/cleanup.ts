/**
 * One place that undoes what the bench started (child processes, temp directories), whichever way the
 * process ends: normal exit, a thrown error, Ctrl-C or SIGTERM. Tasks run synchronously on `exit`, the
 * only moment Node guarantees to reach on every path, so they must be synchronous (kill, rmSync).
 */
const tasks: Array<() => void> = [];
let installed = false;

export function onCleanup(task: () => void): void {
  tasks.push(task);
  if (installed) return;
  installed = true;
  process.on('exit', runCleanup);
  // Without a handler these signals end the process without an `exit` event.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  process.once('SIGHUP', () => process.exit(129));
}

function runCleanup(): void {
  while (tasks.length > 0) {
    try {
      tasks.pop()!();
    } catch {
      // Best effort: one failed task must not keep the others from running.
    }
  }
}
