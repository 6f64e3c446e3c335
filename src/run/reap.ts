import fs from 'node:fs';

/**
 * Finds processes a finished hook left behind outside its process group (a `setsid` daemon, a
 * double fork) and kills them. Every command hook gets a run id in its environment; processes
 * inherit it, so after the hook is over any process still carrying the id is a leftover.
 * Scans are coalesced and run off the hook's critical path; `reapNow` runs the pending scan at once
 * (before Hookline exits).
 */
export const RUN_ID_VAR = 'HOOKLINE_RUN_ID';

const finished = new Set<string>();
/** Run ids of the scan in progress: `reapNow` covers them too. */
const scanning = new Set<string>();
let timer: NodeJS.Timeout | undefined;
const canScan = process.platform === 'linux' && fs.existsSync('/proc/self/environ');

export function reapLater(runId: string): void {
  if (!canScan) return;
  finished.add(runId);
  if (timer) return;
  // Coalesced: one scan reads every process's environment, so at most five a second.
  timer = setTimeout(() => void scanSoon(), 200);
  timer.unref();
}

/** Runs the pending scan now, if any. */
export function reapNow(): void {
  if (!finished.size && !scanning.size) return;
  clearTimeout(timer);
  timer = undefined;
  const ids = new Set([...finished, ...scanning]);
  finished.clear();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return;
  }
  for (const pid of pids) {
    let env: string;
    try {
      env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours
    }
    killIfCarries(pid, env, ids);
  }
}

function killIfCarries(pid: string, env: string, ids: ReadonlySet<string>): void {
  const at = env.indexOf(`${RUN_ID_VAR}=`);
  if (at === -1) return;
  const end = env.indexOf('\0', at);
  const id = env.slice(at + RUN_ID_VAR.length + 1, end === -1 ? undefined : end);
  if (!ids.has(id)) return;
  try {
    process.kill(Number(pid), 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * The timed scan reads the environments off the main thread, a batch at a time, so a scan of
 * hundreds of processes never holds up an event that is running meanwhile.
 */
async function scanSoon(): Promise<void> {
  timer = undefined;
  if (scanning.size) {
    // One scan at a time; this one's ids wait for the next.
    timer = setTimeout(() => void scanSoon(), 200);
    timer.unref();
    return;
  }
  for (const id of finished) scanning.add(id);
  finished.clear();
  try {
    const pids = (await fs.promises.readdir('/proc')).filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
    for (let i = 0; i < pids.length && scanning.size; i += 64) {
      await Promise.all(
        pids.slice(i, i + 64).map(async (pid) => {
          let env: string;
          try {
            env = await fs.promises.readFile(`/proc/${pid}/environ`, 'latin1');
          } catch {
            return; // gone, or not ours
          }
          killIfCarries(pid, env, scanning);
        }),
      );
    }
  } catch {
    // /proc unreadable: nothing to reap
  } finally {
    scanning.clear();
  }
}
