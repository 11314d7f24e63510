import { createHook } from 'node:async_hooks';

/**
 * Counts promise reactions (async_hooks `before` on a PROMISE resource: an `await` resuming, a `then`
 * callback running) inside windows the caller opens and closes, each attributed to the code that created
 * the promise: the first stack frame at its creation that is neither Node's own (`node:`) nor this tool's
 * (`node` when every frame is Node's, as for a promise made in a socket's callback).
 */
export class PromiseReactions {
  private readonly owners = new Map<number, string>();
  private counting: Map<string, number> | undefined;
  private readonly hook = createHook({
    init: (asyncId, type) => {
      if (type !== 'PROMISE') return;
      // Deep enough to get past Node's own frames (streams, timers) to the code that asked for the work.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      this.owners.set(asyncId, this.ownerOf(stack));
    },
    before: (asyncId) => {
      const owner = this.counting && this.owners.get(asyncId);
      if (owner) this.counting!.set(owner, (this.counting!.get(owner) ?? 0) + 1);
    },
    destroy: (asyncId) => {
      this.owners.delete(asyncId);
    },
  });

  /** `classify` names the owner of a frame's file path (e.g. `server`, a package), or undefined to look further down. */
  constructor(
    private readonly classify: (path: string) => string | undefined,
    private readonly ownFiles: string,
  ) {}

  enable(): void {
    this.hook.enable();
  }

  disable(): void {
    this.hook.disable();
    this.owners.clear();
  }

  open(): void {
    this.counting = new Map();
  }

  /** Closes the window: reactions counted since `open`, by owner. */
  close(): Map<string, number> {
    const counted = this.counting ?? new Map<string, number>();
    this.counting = undefined;
    return counted;
  }

  private ownerOf(stack: string): string {
    for (const line of stack.split('\n').slice(1)) {
      const path = /\(?((?:file:\/\/)?\/[^():]+|node:[^():]+)(?::\d+){0,2}\)?$/.exec(line.trim())?.[1];
      if (!path || path.startsWith('node:') || path.includes(this.ownFiles)) continue;
      const owner = this.classify(path.replace(/^file:\/\//, ''));
      if (owner) return owner;
    }
    return 'node';
  }
}
