import type { Worker } from 'node:worker_threads';

/** What a thread answers a request with: the request's `id`, and `error` when it failed. */
export type WorkerReply = { id: number; error?: string } & Record<string, unknown>;

/**
 * Requests to a worker thread, each answered by one message with its `id`: the SQLite ledger's writer
 * thread and its reader thread speak this way. The thread starts on the first request; it is referenced
 * while a request is out, so the process waits for the answer, and unreferenced when idle, so it keeps
 * nothing alive. A thread that dies (it should not) fails the requests it held, and the next request starts
 * a new one.
 *
 * @example
 * const writer = new WorkerRequests(() => new Worker(path, { workerData }), 'usage ledger: writer thread');
 * const { changes } = await writer.send({ deleteBefore: { time, limit } });
 * await writer.close();
 */
export class WorkerRequests {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Requests sent and not answered yet, with the thread each went to. */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

  /** @param name the thread in error messages, e.g. `usage ledger: reader thread` */
  constructor(
    private readonly start: () => Worker,
    private readonly name: string,
  ) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Posts `message` with an `id` of its own and resolves with the thread's answer, or rejects with its error. */
  send(message: Record<string, unknown>): Promise<WorkerReply> {
    const worker = this.thread();
    const id = this.nextId++;
    worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /** Stops the thread; a request still waiting is rejected, and a later one would start a new thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start();
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (![...this.waiting.values()].some((other) => other.worker === worker)) worker.unref();
      if (reply.error === undefined) waiter?.resolve(reply);
      else waiter?.reject(new Error(`usage ledger: ${reply.error}`));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiter] of this.waiting) {
        if (waiter.worker !== worker) continue;
        this.waiting.delete(id);
        waiter.reject(error);
      }
    };
    // What the thread throws arrives cloned, SQLite's own errors as plain objects: keep their message.
    worker.on('error', (error: unknown) =>
      failAll(error instanceof Error ? error : new Error(`${this.name} failed: ${String((error as { message?: unknown })?.message ?? error)}`)),
    );
    worker.on('exit', (code) => failAll(new Error(`${this.name} exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
