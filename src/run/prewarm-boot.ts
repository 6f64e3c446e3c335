/**
 * The loaders a pre-warmed interpreter runs while it waits. Each writes `r` on fd 3 once the
 * interpreter is up, blocks reading one job from fd 3 (`<length>\n` then the argv after the
 * interpreter, NUL-separated: script, arguments), writes `g`, closes fd 3 (so the hook's children
 * never see it), and runs the script as the interpreter's main entry. Its environment, working
 * folder, stdio, process group and cgroup are the ones it was started with, which are exactly a
 * cold run's: nothing is set from the job but argv. End of fd 3 before a job (Hookline gone):
 * exit 0 at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidAlive } from '../config/lock.js';
import { listenForReports, REPORT_SOCKET, stopReports } from './prewarm-report.js';

/** Hookline's own hook SDK, `hookline/sdk` and its entries for each agent (plain modules: no side effect on import). */
const SDK_FILES = ['index.js', 'claude.js', 'codex.js', 'copilot.js'].map((f) => fileURLToPath(new URL(`../sdk/${f}`, import.meta.url)));

// CommonJS, loaded as the main module; it leaves nothing of itself in require.cache or
// process.mainModule, so `require.main === module` and `import.meta` main checks hold.
const NODE_LOADER = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
// The command's CommonJS preloads (\`-r x\`), given after the loader's path: loaded at the event,
// as a cold run loads them before its script.
const deferred = process.argv.slice(2);
// The ESM loader is set up while waiting, by running a module of the loader's own as the main
// entry, so that its code for a file module as the entry is compiled too (an ES module hook would
// pay for both after the job; the module stays internal to the loader, and argv is put back at
// once). The job runs from a macrotask, so a throw in the script is an uncaught exception as cold.
// What a hook's first use of process.stdout, process.stdin or console loads (no stream is made).
const net = require('node:net');
require('node:tty');
let waiting = 2;
const ready = () => --waiting === 0 && setImmediate(run);
{
  const entry = path.join(__dirname, 'warm.mjs');
  const argv = process.argv;
  process.argv = [argv[0], entry];
  require('node:module').runMain();
  process.argv = argv;
  // The same module: settled once it has run as the entry. Then Hookline's SDK, which hooks
  // import: an ES module hook finds it loaded. Hookline's own files, and where this folder
  // resolves \`hookline\` to a copy of all of them byte for byte, that copy (never other code).
  import(require('node:url').pathToFileURL(entry).href)
    .then(() => Promise.all(sdkFiles().map((f) => import(require('node:url').pathToFileURL(f).href))))
    .then(ready, ready);
}
function sdkFiles() {
  const own = ${JSON.stringify(SDK_FILES)};
  try {
    const dir = path.join(path.dirname(require.resolve('hookline/package.json', { paths: [process.cwd()] })), 'dist', 'sdk');
    const copies = own.map((f) => path.join(dir, path.basename(f)));
    if (copies[0] !== own[0] && own.every((f, i) => fs.readFileSync(copies[i]).equals(fs.readFileSync(f)))) return [...own, ...copies];
  } catch {
    // no copy here, or not the same
  }
  return own.filter((f) => fs.existsSync(f));
}
// Hookline's socket for the script's final status (src/run/prewarm-report.ts). Opened here, it is
// close-on-exec: the script's children never have it.
let report = -1;
let settled = false;
const connected = () => settled || ((settled = true), ready());
// Hookline sends a made-up event on it and ends its side. Reading that to its end and answering,
// as a hook reads its stdin and writes its stdout, compiles the code for both while waiting
// rather than at the event. The socket holds the loop until then.
const sock = net.connect({ path: path.join(__dirname, '${REPORT_SOCKET}'), allowHalfOpen: true });
let rehearsal = '';
sock.on('data', (c) => (rehearsal += c));
sock.once('end', () => {
  try {
    JSON.parse(rehearsal);
    report = sock._handle.fd;
    sock.write('p' + process.pid + '\\n');
  } catch {
    report = -1;
  }
  sock.unref();
  connected();
});
sock.on('error', () => {
  report = -1;
  connected();
});
// Its number is free once the socket is gone: one of the script's files may have it by the end.
sock.on('close', () => {
  report = -1;
  connected();
});
/** The job's argv once \`data\` holds all of it (\`<length>\\n\` then NUL-separated). */
function jobOf(data) {
  const nl = data.indexOf(10);
  if (nl < 0) return undefined;
  const need = Number(data.subarray(0, nl).toString());
  const body = data.subarray(nl + 1);
  return body.length >= need ? body.subarray(0, need).toString('utf8').split('\\0') : undefined;
}
// What the job takes, once on a made-up one and a file of the loader's own (deleted from the
// cache at once), so that its code is compiled before the event.
jobOf(Buffer.concat([Buffer.alloc(0), Buffer.from('3\\na\\0b')]));
require(path.join(__dirname, 'warm.cjs'));
delete require.cache[path.join(__dirname, 'warm.cjs')];
function run() {
  fs.writeSync(3, 'r');
  const buf = Buffer.alloc(65536);
  let data = Buffer.alloc(0);
  let argv;
  for (;;) {
    const n = fs.readSync(3, buf, 0, buf.length, null);
    if (n === 0) process.exit(0);
    data = Buffer.concat([data, buf.subarray(0, n)]);
    if ((argv = jobOf(data))) break;
  }
  fs.writeSync(3, 'g');
  fs.closeSync(3);
  delete require.cache[__filename];
  process.mainModule = undefined;
  sayFinalStatus();
  process.argv = [process.argv[0], path.resolve(argv[0]), ...argv.slice(1)];
  if (deferred.length) preload();
  require('node:module').runMain();
}

/** The preloads, as Node loads them before a cold run's script (argv already the script's), and in execArgv. */
function preload() {
  const requests = [];
  for (let i = 0; i < deferred.length; i++) {
    const eq = deferred[i].indexOf('=');
    requests.push(eq < 0 ? deferred[++i] : deferred[i].slice(eq + 1));
  }
  process.execArgv.push(...deferred);
  require('node:module')._preloadModules(requests);
}

// Once the last 'exit' listener has run, the status is final; the process then takes ~10 ms
// more to be torn down. It is said then, after stdout and stderr are closed, so Hookline has all
// of both once it reads their ends. Not after an uncaught exception (Node prints it after the
// listeners), nor with --trace-exit (which prints there too); those runs end at their exit.
function sayFinalStatus() {
  const traced = /--trace-exit/.test(process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || ''));
  const original = process.emit;
  let fatal = false;
  let depth = 0;
  const wrapper = {
    emit(type) {
      // A throw that a handler takes is no end: the process goes on past this tick.
      if (type === 'uncaughtExceptionMonitor') {
        fatal = true;
        process.nextTick(() => (fatal = false));
      }
      depth++;
      let r;
      try {
        r = Reflect.apply(original, this, arguments);
      } finally {
        depth--;
      }
      // Only as the outermost emit: code that wrapped process.emit since (signal-exit, for one)
      // runs its exit work after this returns, so such a run ends at its exit.
      if (type === 'exit' && depth === 0 && process.emit === wrapper && process._exiting === true && report >= 0 && !fatal && !traced)
        finalStatus();
      return r;
    },
  }.emit;
  process.emit = wrapper;
}

function finalStatus() {
  const code = Number(process.exitCode ?? 0);
  if (!Number.isInteger(code) || sock.destroyed) return;
  try {
    // /dev/null takes each one's number (the lowest free): what teardown writes goes nowhere.
    for (const fd of [1, 2]) {
      fs.closeSync(fd);
      fs.openSync('/dev/null', 'w');
    }
    fs.writeSync(report, 'x' + (((code % 256) + 256) % 256) + '\\n');
  } catch {
    // a status not said: the run ends at the exit
  }
}
`;

// Given with -c; everything happens inside one function that removes itself, so the script's
// globals are a fresh __main__'s. sys.argv, sys.orig_argv, sys.path[0], __file__ and __loader__
// are set as \`python3 script.py\` sets them; a traceback loses the loader's own frame.
const WARM_MODULE = `import 'node:fs';
export default 1;
`;
const WARM_SCRIPT = `'use strict';
module.exports = require('node:path').basename(__filename);
`;

const PYTHON_LOADER = `def _hookline_run():
    import sys
    # The working folder ('' first on the path) is not where a cold run looks: while the loader
    # imports json, a json.py there must not load (the script's folder takes its place later).
    cwd_first = sys.path[0] == '' if sys.path else False
    if cwd_first:
        del sys.path[0]
    import gc, json, os
    if cwd_first:
        sys.path.insert(0, '')
    del globals()['_hookline_run']
    # The compiler's first run sets up its tables and memory: done now on code of the kind hooks
    # are made of, the script's own compile then takes a tenth of the time.
    compile('''
import json, os, sys
from pathlib import Path

def handle(event: dict) -> dict:
    command = str(event.get("tool_input", {}).get("command", ""))
    if "rm -rf" in command or command.startswith(("sudo ", "curl")):
        return {"decision": "deny", "reason": f"blocked: {command!r}"}
    for key, value in sorted(event.items()):
        if isinstance(value, (list, tuple)) and len(value) > 2:
            continue
    return {"decision": "allow"}

class Guard:
    def __init__(self, rules=None):
        self.rules = rules or []

if __name__ == "__main__":
    try:
        print(json.dumps(handle(json.load(sys.stdin))))
    except Exception as e:
        print(e, file=sys.stderr)
        sys.exit(1)
''', '<prewarm>', 'exec')
    # As a pre-forking server does: the start-up's objects are left out of every collection, the
    # one at exit included, which is most of a short script's exit time. json is what hooks import.
    gc.freeze()
    os.write(3, b'r')
    data = b''
    while b'\\n' not in data:
        chunk = os.read(3, 65536)
        if not chunk:
            os._exit(0)
        data += chunk
    head, _, body = data.partition(b'\\n')
    need = int(head)
    while len(body) < need:
        chunk = os.read(3, 65536)
        if not chunk:
            os._exit(0)
        body += chunk
    os.write(3, b'g')
    os.close(3)
    argv = [os.fsdecode(a) for a in body[:need].split(b'\\0')]
    script = argv[0]
    module = argv[1] if script == '-m' else None
    # With -m, argv[0] is '-m' until the module is found (runpy then puts its file there).
    sys.argv[:] = [script] + argv[2:] if module else argv
    if hasattr(sys, 'orig_argv'):
        # The interpreter and its options stay; the loader's -c and code become the script's argv.
        sys.orig_argv[len(sys.orig_argv) - 2:] = argv
    if sys.path and sys.path[0] == '' and not getattr(sys.flags, 'safe_path', False):
        sys.path[0] = os.getcwd() if module else os.path.dirname(os.path.realpath(script))
    # A __main__ made now, outside the frozen objects, so that it is finalised at exit as a cold
    # run's is; its entries are the waiting one's, in the same order.
    waiting = sys.modules['__main__'].__dict__
    main = type(sys)('__main__')
    g = main.__dict__
    g.clear()
    for k, v in waiting.items():
        g[k] = {} if k == '__annotations__' else v
    sys.modules['__main__'] = main
    if not module:
        with open(script, 'rb') as f:
            source = f.read()
        # The interpreter joins the folder and the path as given, without normalising (./x.py stays).
        full = script if os.path.isabs(script) else os.path.join(os.getcwd(), script)
        g['__file__'] = full
        g['__cached__'] = None
        g['__loader__'] = sys.modules['_frozen_importlib_external'].SourceFileLoader('__main__', full)
    try:
        if module:
            # As \`python3 -m\` runs it (runpy fills __main__ and puts the module's file in argv[0]).
            import runpy
            runpy._run_module_as_main(module, True)
        else:
            exec(compile(source, full, 'exec'), g)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        # Left to the interpreter, which ends as on a cold run's interrupt (the traceback, then
        # the signal); the traceback is shown without this loader's frames. It is the one the
        # exception carries that is printed, whatever the hook is given. The script's own hook
        # is put back first, and what sys keeps of the error is the trimmed traceback.
        shown = sys.excepthook
        own = (sys._getframe().f_code, sys._getframe(1).f_code)
        def excepthook(kind, value, tb):
            sys.excepthook = shown
            tb = getattr(value, '__traceback__', None) or tb
            while tb is not None and tb.tb_frame.f_code in own:
                tb = tb.tb_next
            if isinstance(value, BaseException):
                value.__traceback__ = tb
            sys.last_traceback = tb
            if shown is None:
                sys.stderr.write('sys.excepthook is missing\\n')
                sys.__excepthook__(kind, value, tb)
            else:
                shown(kind, value, tb)
        sys.excepthook = excepthook
        raise
    except BaseException as e:
        e.__traceback__ = e.__traceback__.tb_next
        sys.excepthook(type(e), e, e.__traceback__)
        sys.exit(1)
_hookline_run()
`;

let dir: string | undefined;
let exitHooked = false;
/** Loader folders are named with their process id, so one a killed process left can be told and removed. */
const LOADER_PREFIX = 'hookline-prewarm-';

/** Removes the loader folders of processes that are gone (killed before their exit handler ran). */
function removeOrphanLoaders(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^hookline-prewarm-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || pidAlive(pid)) continue;
    const folder = path.join(os.tmpdir(), name);
    try {
      // Only our own: the temp folder is shared.
      if (fs.lstatSync(folder).uid === process.getuid?.()) fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}

/** The arguments that start a waiting interpreter of this kind (after the interpreter word). */
export function loaderArgs(kind: 'node' | 'python'): string[] {
  if (kind === 'python') return ['-c', PYTHON_LOADER];
  // A file, not `-e`: `-e` would show in process.execArgv and change how Node runs its main.
  if (!dir || !fs.existsSync(dir)) {
    removeOrphanLoaders();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `${LOADER_PREFIX}${process.pid}-`));
    fs.writeFileSync(path.join(dir, 'loader.cjs'), NODE_LOADER, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(path.join(dir, 'warm.mjs'), WARM_MODULE, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(path.join(dir, 'warm.cjs'), WARM_SCRIPT, { mode: 0o600, flag: 'wx' });
    listenForReports(dir);
    if (!exitHooked) process.once('exit', removeLoaders);
    exitHooked = true;
  }
  return [path.join(dir, 'loader.cjs')];
}

/** The encoded job for a warm interpreter. */
export function jobMessage(argv: readonly string[]): Buffer {
  const body = Buffer.from(argv.join('\0'), 'utf8');
  return Buffer.concat([Buffer.from(`${body.length}\n`), body]);
}

export function removeLoaders(): void {
  if (!dir) return;
  stopReports();
  fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
