/**
 * Where pre-warmed Node hooks say their exit status is final (src/run/prewarm-boot.ts). Tearing a
 * Node process down takes it about 10 ms after its last 'exit' listener; by then nothing it
 * does can change its status or its output, so its run can be over before the kernel has
 * reaped it. Each waiting interpreter connects to this socket in the loader folder (0700,
 * Hookline's own) as it starts and names its pid; once its script is done it closes its stdout
 * and stderr and sends its status. A run whose process never says so ends at its exit, as cold.
 */
import net from 'node:net';
import path from 'node:path';

const listeners = new Map<number, (code: number) => void>();
let server: net.Server | undefined;

/** The socket's name in the loader folder (the loader connects to it beside itself). */
export const REPORT_SOCKET = 'report.sock';

/** Listens in a new loader folder (the one before it is gone). */
export function listenForReports(dir: string): void {
  server?.close();
  const s = net.createServer(onConnection);
  s.on('error', () => {
    // No socket (a folder path too long for one): runs end at their exit.
  });
  try {
    s.listen(path.join(dir, REPORT_SOCKET));
  } catch {
    return;
  }
  s.unref();
  server = s;
}

/** What a waiting interpreter reads and answers once while it waits, as a hook does its event. */
const REHEARSAL = JSON.stringify({
  session_id: 'prewarm',
  hook_event_name: 'BeforeTool',
  tool_name: 'run_shell_command',
  tool_input: { command: 'true' },
});

function onConnection(c: net.Socket): void {
  // A waiting interpreter keeps Hookline alive no more than its pipes do.
  c.unref();
  c.setEncoding('latin1');
  c.on('error', () => {});
  c.end(REHEARSAL);
  let pid = 0;
  let text = '';
  c.on('data', (d: string) => {
    text += d;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      const hello = /^p([1-9]\d{0,9})$/.exec(line);
      const status = /^x(\d{1,3})$/.exec(line);
      if (!pid && hello) pid = Number(hello[1]);
      else if (pid && status && Number(status[1]) <= 255) {
        listeners.get(pid)?.(Number(status[1]));
        return void c.destroy();
      } else return void c.destroy();
    }
    if (text.length > 64) c.destroy();
  });
}

/** Calls `listener` with the status the process `pid` reports; returns the unsubscribe. */
export function onReport(pid: number, listener: (code: number) => void): () => void {
  listeners.set(pid, listener);
  return () => {
    if (listeners.get(pid) === listener) listeners.delete(pid);
  };
}

export function stopReports(): void {
  server?.close();
  server = undefined;
}
