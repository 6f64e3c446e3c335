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
let timer: NodeJS.Timeout | undefined;
const canScan = process.platform === 'linux' && fs.existsSync('/proc/self/environ');

/** Scans asked for (one per run not known to be wholly contained and gone); tests read it. */
export const reapCounts = { requested: 0 };

export function reapLater(runId: string): void {
  if (!canScan) return;
  reapCounts.requested++;
  finished.add(runId);
  if (timer) return;
  // Coalesced: one scan reads every process's environment, so at most five a second.
  timer = setTimeout(scan, 200);
  timer.unref();
}

/** Runs the pending scan now, if any. */
export function reapNow(): void {
  if (!finished.size) return;
  clearTimeout(timer);
  scan();
}

function scan(): void {
  timer = undefined;
  const ids = [...finished];
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
    const at = env.indexOf(`${RUN_ID_VAR}=`);
    if (at === -1) continue;
    const end = env.indexOf('\0', at);
    const id = env.slice(at + RUN_ID_VAR.length + 1, end === -1 ? undefined : end);
    if (!ids.includes(id)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
