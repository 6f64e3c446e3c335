/**
 * At most MAX_HOOK_PROCESSES one-shot hook processes run at once in one Hookline process (a
 * server answering a batch of a thousand events included); the others wait their turn in order,
 * and a hook's timeout starts when it starts, not while it waits. HOOKLINE_MAX_HOOK_PROCESSES
 * changes the cap.
 */
export const DEFAULT_MAX_HOOK_PROCESSES = 32;

function cap(): number {
  const n = Number(process.env.HOOKLINE_MAX_HOOK_PROCESSES);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_HOOK_PROCESSES;
}

let running = 0;
const waiting: Array<() => void> = [];

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** Runs `work` once a slot is free (at once when the signal is already aborted: it ends at once too). */
export async function withSlot<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  if (running < cap()) running++;
  else if (!signal?.aborted) {
    const got = await new Promise<boolean>((resolve) => {
      const turn = () => {
        signal?.removeEventListener('abort', cancel);
        resolve(true);
      };
      const cancel = () => {
        const i = waiting.indexOf(turn);
        if (i !== -1) waiting.splice(i, 1);
        resolve(false);
      };
      waiting.push(turn);
      signal?.addEventListener('abort', cancel, { once: true });
    });
    // Cancelled while waiting: it runs without a slot, and ends at once on its aborted signal.
    if (!got) return work();
  } else return work();
  try {
    return await work();
  } finally {
    release();
  }
}

/** How many hook processes run now, and how many wait (for tests and benchmarks). */
export function slotState(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}
