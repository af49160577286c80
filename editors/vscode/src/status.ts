// Server liveness bookkeeping that does not need an editor: when every check
// is done (`zeno/serverStatus`), and when to stop restarting a crashing server.

/**
 * Tracks `zeno/serverStatus { quiescent }` notifications so a test run can
 * wait until the checks it asked for are done.
 */
export class Quiescence {
  private quiescent = true;
  private seq = 0;
  private waiters: { after: number; resolve: (done: boolean) => void }[] = [];
  private listeners: (() => void)[] = [];

  /** Calls `listener` at every quiescent notification (new results are in). */
  onQuiescent(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** A mark to wait from: only notifications after it count. */
  mark(): number {
    return this.seq;
  }

  get isQuiescent(): boolean {
    return this.quiescent;
  }

  update(quiescent: boolean): void {
    this.seq++;
    this.quiescent = quiescent;
    if (!quiescent) return;
    const ready = this.waiters.filter((w) => w.after < this.seq);
    this.waiters = this.waiters.filter((w) => w.after >= this.seq);
    for (const w of ready) w.resolve(true);
    for (const l of [...this.listeners]) l();
  }

  /**
   * Resolves true at the first quiescent notification after `mark`, or when
   * the server is already quiescent and says nothing for `graceMs` (it had no
   * new work); false after `timeoutMs`.
   */
  waitSince(mark: number, timeoutMs: number, graceMs: number): Promise<boolean> {
    if (this.seq > mark && this.quiescent) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { after: mark, resolve: (done: boolean) => finish(done) };
      const timers: NodeJS.Timeout[] = [];
      const finish = (done: boolean) => {
        timers.forEach(clearTimeout);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(done);
      };
      this.waiters.push(waiter);
      timers.push(setTimeout(() => finish(false), timeoutMs));
      timers.push(
        setTimeout(() => {
          if (this.seq === mark && this.quiescent) finish(true);
        }, graceMs),
      );
    });
  }
}

/**
 * Restart a crashed server, but not forever: after `limit` crashes within
 * `windowMs` give up (a server that dies at once on every start would
 * otherwise loop).
 */
export class CrashPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** Records a crash at `now`; returns whether to restart and what to tell the user. */
  crashed(now: number): { restart: boolean; message: string } {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    const n = this.crashes.length;
    if (n <= this.limit) {
      return {
        restart: true,
        message: `The zeno language server stopped unexpectedly; restarting it (${n} of ${this.limit}).`,
      };
    }
    return {
      restart: false,
      message:
        `The zeno language server crashed ${n} times in ${Math.round(this.windowMs / 60000)} minutes ` +
        `and will not be restarted. See the "zeno" output, check the setting zeno.path, ` +
        `then run "zeno: Restart Language Server".`,
    };
  }
}
