/** Runs at most `limit` tasks at once; the rest wait in arrival order. */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: { id: string; task: () => Promise<void> }[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer, not ${limit}`);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  run(id: string, task: () => Promise<void>): void {
    this.waiting.push({ id, task });
    this.pump();
  }

  /** Forgets tasks that have not started yet (a new configuration replaces them); running ones finish. */
  dropQueued(): number {
    const dropped = this.waiting.length;
    this.waiting.length = 0;
    return dropped;
  }

  queuedIds(): string[] {
    return this.waiting.map((w) => w.id);
  }

  private pump(): void {
    while (this.running < this.limit) {
      const next = this.waiting.shift();
      if (!next) return;
      this.running++;
      next
        .task()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
