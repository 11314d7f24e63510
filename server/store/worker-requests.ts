import type { Worker } from 'node:worker_threads';

/** What a thread answers a request with: the request's `id`, and `error` when it failed. */
export type WorkerReply = { id: number; error?: string } & Record<string, unknown>;

/**
 * How long {@link WorkerRequests.close} waits for the thread to stop. A thread inside one SQLite statement
 * stops only when the statement returns (a report over millions of rows takes seconds): close does not wait
 * for that; the thread, unreferenced, stops as soon as it comes back to JavaScript.
 */
export const closeWaitMs = 1_000;

/**
 * Requests to a worker thread, each answered by one message with its `id`: the SQLite ledger's writer
 * thread, its reader thread and the batch store's thread speak this way. The thread starts on the first
 * request; it is referenced while a request is out, so the process waits for the answer, and unreferenced
 * when idle, so it keeps nothing alive. A thread that dies (it should not) fails the requests it held, and
 * the next request starts a new one. Once closed, every request still out is rejected at once, and every
 * later one too, unless the thread must not lose what comes late (`restartAfterClose`: the ledger's writer,
 * whose rows recorded after close are written by a new thread rather than lost).
 *
 * @example
 * const writer = new WorkerRequests(() => new Worker(path, { workerData }), 'usage ledger: writer thread');
 * const { changes } = await writer.send({ deleteBefore: { time, limit } });
 * await writer.close();
 */
export class WorkerRequests {
  private worker: Worker | undefined;
  private nextId = 1;
  private closed = false;
  /** Requests sent and not answered yet, with the thread each went to. */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

  /**
   * @param name the thread, at the head of every error it causes, e.g. `usage ledger: reader thread`
   * @param restartAfterClose a request after close starts a new thread instead of being refused
   */
  constructor(
    private readonly start: () => Worker,
    private readonly name: string,
    private readonly restartAfterClose = false,
  ) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Posts `message` with an `id` of its own and resolves with the thread's answer, or rejects with its error. */
  send(message: Record<string, unknown>): Promise<WorkerReply> {
    // After close, a read-ahead or a late query must not start a thread that nothing would ever close.
    if (this.closed && !this.restartAfterClose) return Promise.reject(new Error(`${this.name} is closed`));
    const worker = this.thread();
    const id = this.nextId++;
    worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /**
   * Stops the thread: the requests still out are rejected now (not when the thread gets round to exiting),
   * later ones are refused (or start a new thread: `restartAfterClose`), and close resolves once the thread has stopped or after {@link closeWaitMs}.
   */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    const closing = new Error(`${this.name} closed before answering`);
    for (const [id, waiter] of this.waiting) {
      this.waiting.delete(id);
      waiter.reject(closing);
    }
    if (!worker) return;
    worker.unref();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, closeWaitMs).unref()));
    await Promise.race([worker.terminate().then(() => undefined), waited]);
    clearTimeout(timer);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start();
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (![...this.waiting.values()].some((other) => other.worker === worker)) worker.unref();
      if (reply.error === undefined) waiter?.resolve(reply);
      else waiter?.reject(new Error(`${this.name}: ${reply.error}`));
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
