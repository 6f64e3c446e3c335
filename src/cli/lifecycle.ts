import { containment } from '../run/cgroup.js';
import { drain, runCounts } from '../run/process.js';

const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
/** How often the parent is checked for: Node has no PR_SET_PDEATHSIG. */
const PARENT_CHECK_MS = 100;

function say(line: string): void {
  try {
    process.stderr.write(`hookline: ${line}\n`);
  } catch {
    // stderr went with the parent
  }
}

/**
 * Runs a command whose hooks must not outlive it: on SIGINT, SIGTERM, SIGHUP or the death of
 * the parent process (seen as a new parent pid), every hook process is stopped and reaped before
 * Hookline exits. Afterwards, says once when the runs could not be contained here. A command
 * that handles SIGINT itself (the agent: Ctrl-C cancels a turn) leaves it out of `signals`; one
 * that may outlive its parent on purpose (an agent under nohup) does not watch it.
 */
export async function withHookProcesses(
  task: () => Promise<void>,
  opts: { signals?: readonly NodeJS.Signals[]; watchParent?: boolean } = {},
): Promise<void> {
  const signals = opts.signals ?? (Object.keys(EXIT_CODES) as NodeJS.Signals[]);
  let stopping = false;
  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    // A dead parent's pipes would make writes fail; that must not stop the cleanup.
    process.stdout.on('error', () => {});
    process.stderr.on('error', () => {});
    say(`${why}: stopping hooks`);
    void drain().finally(() => process.exit(code));
  };
  const handlers = signals.map((sig) => {
    const h = () => stop(sig, EXIT_CODES[sig]!);
    process.on(sig, h);
    return [sig, h] as const;
  });
  const parent = process.ppid;
  const watch =
    opts.watchParent === false
      ? undefined
      : setInterval(() => {
          if (process.ppid !== parent) stop('parent process exited', 129);
        }, PARENT_CHECK_MS);
  watch?.unref();
  try {
    await task();
    await drain();
  } finally {
    clearInterval(watch);
    for (const [sig, h] of handlers) process.off(sig, h);
  }
  if (runCounts().started === 0) return;
  // Known by now when a run entered its cgroup; else probed here (a move that fails fails at once).
  const c = containment();
  if (!c.available) {
    say(
      `warning: a hook's processes that leave its process group and drop HOOKLINE_RUN_ID cannot be contained here (${c.reason}); they may outlive the run`,
    );
  }
}
