/** One bounded wait: a signal aborted when `ms` pass or when `cancel` aborts, whichever is first. */
export interface Deadline {
  signal: AbortSignal;
  /** Whether the time ran out (rather than the wait being cancelled). */
  timedOut(): boolean;
  /** Aborts now, as a cancel would. */
  abort(): void;
  /** The wait is over: the timer and the cancel listener go. */
  done(): void;
}

export function deadline(ms: number, cancel?: AbortSignal): Deadline {
  const ac = new AbortController();
  let timedOut = false;
  // A ref'd timer, not AbortSignal.timeout: that one would let the process exit mid-wait.
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort(new Error('timeout'));
  }, ms);
  const onCancel = () => ac.abort(new Error('cancelled'));
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  return {
    signal: ac.signal,
    timedOut: () => timedOut,
    abort: onCancel,
    done: () => {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}
