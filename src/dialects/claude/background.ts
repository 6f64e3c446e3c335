/**
 * What a Claude Code session keeps between events for its hooks:
 * the `async` / `asyncRewake` hooks still running in the background, and the messages
 * `asyncRewake` hooks left for the agent (exit code 2: their output wakes the agent on its
 * next turn), and what finished `async` hooks answered (`systemMessage`, `additionalContext`:
 * Claude Code delivers it on the next conversation turn). Background runs are real processes, stopped and reaped on `close()`.
 */
/** What a background hook that finished left for the next turn. */
export interface AsyncNote {
  event: string;
  command: string;
  context?: string;
  systemMessage?: string;
}

/** What an asyncRewake hook that exited 2 left: the text for the model, the line for the user. */
export interface Wake {
  text: string;
  summary: string;
}

export class ClaudeSession {
  private readonly running = new Set<Promise<unknown>>();
  private readonly messages: Wake[] = [];
  private readonly notes: AsyncNote[] = [];
  private readonly stop = new AbortController();
  /** Processes kept for the session's hooks (the shells started ahead of events); closed with it. */
  readonly processes = new Map<string, { close(): void }>();

  /** Cancels background runs when the session closes. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** Keeps a background run; it is awaited by `settle()` and stopped by `close()`. */
  track(run: Promise<unknown>): void {
    const p = run.finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** A message for the agent's next turn. */
  wake(message: Wake): void {
    this.messages.push(message);
  }

  /** The messages waiting, oldest first; the queue is emptied. */
  drain(): Wake[] {
    return this.messages.splice(0);
  }

  /** What a finished `async` hook said (its systemMessage and additionalContext), for the next turn. */
  note(n: AsyncNote): void {
    if (n.context || n.systemMessage) this.notes.push(n);
  }

  /** The notes waiting, oldest first; the queue is emptied. They wake nobody: the next prompt carries them. */
  drainNotes(): AsyncNote[] {
    return this.notes.splice(0);
  }

  get pending(): number {
    return this.messages.length;
  }

  /** Waits until every background run has ended. */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /**
   * Waits up to `ms` for the background runs to end on their own (an `async` hook that logs or
   * notifies finishes after the session's last event, as under Claude Code); returns how many
   * are still running.
   */
  async settleWithin(ms: number): Promise<number> {
    if (!this.running.size) return 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.settle(), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return this.running.size;
  }

  /** Stops every background run (their process groups are killed and reaped) and waits for them. */
  async close(): Promise<void> {
    this.stop.abort();
    for (const p of this.processes.values()) p.close();
    this.processes.clear();
    await this.settle();
  }
}

/** At most `n` at once; the others wait their turn in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly n: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing run hands its slot straight to the next waiting one.
    if (this.active >= this.n) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  get running(): number {
    return this.active;
  }
}

/** Claude Code runs at most 12 prompt and agent hooks at once. */
export const JUDGE_CONCURRENCY = 12;
export const judges = new Limiter(JUDGE_CONCURRENCY);
