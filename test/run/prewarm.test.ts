import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cmd, hook, HOOKS, makeProject, ROOT } from '../helpers.js';
import { pidsReady, readCapture, survivors, tmpDir } from './util.js';
import { runCommand, type CommandRun } from '../../src/run/command.js';
import { PrewarmPools, poolsOf } from '../../src/run/prewarm.js';
import { drain } from '../../src/run/process.js';
import { warmCommand } from '../../src/run/prewarm-command.js';
import { HookEngine } from '../../src/engine/index.js';
import type { ProcessResult } from '../../src/run/result.js';

describe('which commands run pre-warmed', () => {
  test('node and python running one script, arguments as literal words', () => {
    assert.deepEqual(warmCommand(`node '/a b/x.mjs' --flag "two words" k=v`), {
      ok: true,
      kind: 'node',
      interpreter: 'node',
      options: [],
      preloads: [],
      argv: ['/a b/x.mjs', '--flag', 'two words', 'k=v'],
    });
    assert.deepEqual(warmCommand('/usr/bin/python3 hooks/x.py'), {
      ok: true,
      kind: 'python',
      interpreter: '/usr/bin/python3',
      options: [],
      preloads: [],
      argv: ['hooks/x.py'],
    });
    // Options read once at start go with the interpreter; the script's own come after it.
    assert.deepEqual(warmCommand('python3 -u -B x.py -u'), {
      ok: true,
      kind: 'python',
      interpreter: 'python3',
      options: ['-u', '-B'],
      preloads: [],
      argv: ['x.py', '-u'],
    });
    assert.deepEqual(warmCommand('node --no-warnings --max-old-space-size=512 x.cjs a'), {
      ok: true,
      kind: 'node',
      interpreter: 'node',
      options: ['--no-warnings', '--max-old-space-size=512'],
      preloads: [],
      argv: ['x.cjs', 'a'],
    });
    // Node's CommonJS preloads are loaded at the event; a Python module run with -m is found then.
    assert.deepEqual(warmCommand('node --no-warnings -r dotenv/config --require=./p.cjs x.js a'), {
      ok: true,
      kind: 'node',
      interpreter: 'node',
      options: ['--no-warnings'],
      preloads: ['-r', 'dotenv/config', '--require=./p.cjs'],
      argv: ['x.js', 'a'],
    });
    assert.deepEqual(warmCommand('python3 -u -m tools.guard --strict'), {
      ok: true,
      kind: 'python',
      interpreter: 'python3',
      options: ['-u'],
      preloads: [],
      argv: ['-m', 'tools.guard', '--strict'],
    });
    assert.equal(warmCommand('python3.11 x.py').ok, true);
    assert.equal(warmCommand(String.raw`node x\ y.js`).ok, true);
  });

  test('refused: other interpreter options, preloads, inline code, other programs, anything the shell computes', () => {
    const refused = [
      'node --title=x x.mjs',
      'node -r',
      'node -r=./x.cjs y.js',
      'node --require= y.js',
      'node -r x.cjs --no-warnings y.js',
      'node --import ./x.mjs y.mjs',
      'node --import=tsx y.mjs',
      'npx tsx x.ts',
      'tsx x.ts',
      'npx node x.js',
      'python3 -m',
      'python3 -m ./x.py',
      'python3 -X dev x.py',
      'python3 -uB x.py',
      'node -e 1',
      'python3 -c "print(1)"',
      'node inspect x.js',
      'node',
      'bash x.sh',
      'deno run x.ts',
      'FOO=1 node x.js',
      'node $HOME/x.js',
      'node "$HOME/x.js"',
      'node x.js | cat',
      'node x.js > out',
      'node x.js && echo done',
      'node x.js; echo',
      'node x.js &',
      'node *.js',
      'node ~/x.js',
      'node {a,b}.js',
      'node x.js # comment',
      'node `which x`',
      "node $'x.js'",
      'node x.js\necho hi',
      "node 'x.js",
    ];
    for (const c of refused) assert.equal(warmCommand(c).ok, false, c);
  });

  test('each refusal says why, in words a user can act on', () => {
    const why = (c: string) => {
      const w = warmCommand(c);
      return w.ok ? '' : w.reason;
    };
    assert.match(why('npx tsx x.ts'), /^npx finds \(or fetches\) the program to run only when it runs/);
    assert.match(why('tsx x.ts'), /^tsx compiles TypeScript through module loader hooks/);
    assert.match(why('node --import tsx x.mjs'), /ES module preload or loader \(--import\) sets itself up as the interpreter starts/);
    assert.match(why('node -e 1'), /^inline code \(-e\)/);
    assert.match(why('python3 -c "print(1)"'), /^inline code \(-c\)/);
    assert.match(why('node --title=x x.js'), /^interpreter option "--title=x": a waiting interpreter can start only with/);
  });
});

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', HOOKLINE_TEST_VALUE: 'a b "c"' };
const INPUT = JSON.stringify({ hook_event_name: 'BeforeTool', tool_input: { command: 'ls' } });

interface Report {
  argv: string[];
  execArgv?: string[];
  env: Record<string, string>;
  cwd: string;
  stdin: string;
  main: boolean;
  pid: number;
  pgid?: number;
  file?: string;
  path0?: string;
}

describe('pre-warmed interpreters run a hook as a fresh process would', () => {
  const pools = new PrewarmPools();
  const dir = tmpDir('hookline-pwtest-');
  const cwd = path.join(dir, 'work');
  fs.mkdirSync(cwd);
  after(() => pools.close());

  const runOf = (command: string, extra: Partial<CommandRun> = {}): CommandRun => ({ command, cwd, env: ENV, stdin: INPUT, ...extra });

  async function warm(run: CommandRun): Promise<ProcessResult & { poolPids: number[]; shell?: string }> {
    // The first job starts the pool; the next ones find an interpreter waiting. When a shell of
    // this folder already waits, the first job runs in it: wait for it, as it writes where the
    // second one does.
    const first = pools.run(run);
    if ('result' in first) await first.result;
    await pools.ready();
    const poolPids = pools.info().flatMap((p) => p.pids);
    const before = pools.counts.warm + pools.counts.shell;
    const attempt = pools.run(run);
    assert.ok('result' in attempt, 'cold' in attempt ? attempt.cold : '');
    assert.equal(pools.counts.warm + pools.counts.shell, before + 1);
    return { ...(await attempt.result), poolPids, ...(attempt.shell ? { shell: attempt.shell } : {}) };
  }

  const read = (file: string): Report => JSON.parse(fs.readFileSync(file, 'utf8'));
  const withoutRunId = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'HOOKLINE_RUN_ID'));

  test('python: a file left open is flushed, __del__, atexit and the collection at exit run as in a cold run', async () => {
    const coldLog = path.join(dir, 'exit.cold.log');
    const warmLog = path.join(dir, 'exit.warm.log');
    const cold = await runCommand(runOf(`python3 ${hook('pw-exit.py')} '${coldLog}'`));
    const hot = await warm(runOf(`python3 ${hook('pw-exit.py')} '${warmLog}'`));
    assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
    assert.equal(cold.exitCode, 0, cold.stderr);
    assert.equal(hot.stdout, cold.stdout);
    assert.match(cold.stdout, /atexit\n/);
    assert.match(cold.stdout, /del\n/);
    assert.match(cold.stdout, /cycle collected\n/);
    assert.equal(fs.readFileSync(warmLog, 'utf8'), 'written, never closed\n');
    assert.equal(fs.readFileSync(coldLog, 'utf8'), 'written, never closed\n');
  });

  for (const [name, main] of [
    ['pw-report.mjs', 'esm'],
    ['pw-report.cjs', 'cjs'],
    ['pw-report.py', 'py'],
  ] as const) {
    test(`${name}: argv, environment, cwd, stdin, stdout, stderr, exit code and the main check match a cold run`, async () => {
      const interp = name.endsWith('.py') ? 'python3' : 'node';
      const coldOut = path.join(dir, `${name}.cold.json`);
      const warmOut = path.join(dir, `${name}.warm.json`);
      const cold = await runCommand(runOf(`${interp} ${hook(name)} '${coldOut}' 3`));
      const hot = await warm(runOf(`${interp} ${hook(name)} '${warmOut}' 3`));
      for (const r of [cold, hot]) {
        assert.equal(r.exitCode, 3, r.stderr);
        assert.equal(r.stdout.trim(), `{"decision":"allow","systemMessage":"${main}"}`);
        assert.equal(r.error, undefined);
      }
      if (name === 'pw-report.mjs') assert.equal(hot.stderr, 'to stderr');
      const a = read(coldOut);
      const b = read(warmOut);
      assert.ok(hot.poolPids.includes(b.pid), 'the hook ran in a waiting interpreter');
      assert.deepEqual(b.argv.slice(1), [warmOut, '3']);
      assert.equal(b.argv[0], a.argv[0]);
      assert.deepEqual(b.execArgv, a.execArgv);
      assert.deepEqual(withoutRunId(b.env), withoutRunId(a.env));
      assert.match(b.env.HOOKLINE_RUN_ID, /^[0-9a-f-]{36}$/);
      assert.notEqual(b.env.HOOKLINE_RUN_ID, a.env.HOOKLINE_RUN_ID);
      assert.equal(b.cwd, a.cwd);
      assert.equal(b.stdin, INPUT);
      assert.equal(a.main, true);
      assert.equal(b.main, true);
      assert.equal(b.file, a.file);
      // Nothing the loader loaded (its own file, the one it warms with) is in the script's module cache.
      assert.deepEqual(b.modules, a.modules);
      assert.equal(b.path0, a.path0);
      // Its own process group, as a cold hook (the timeout kill signals the group).
      if (b.pgid !== undefined) assert.equal(b.pgid, b.pid);
    });
  }

  test('node: every way a hook ends (exit listeners, process.exit in one, throws, rejections, children, a large output, a signal) gives what the cold run gives', async () => {
    const ref = await runCommand(runOf(`node ${hook('pw-ends.cjs')} listener`));
    assert.deepEqual([ref.exitCode, ref.stdout, ref.stderr], [5, '{"decision":"allow"}\nbye', 'said at exit']);
    // The status is said before the teardown where it is final then; the other runs end at their exit
    // (process.exit in a listener, an uncaught throw, a signal, process.emit wrapped after the loader's).
    const early = ['listener', 'handled', 'child', 'big'];
    for (const mode of [...early, 'exit-in-listener', 'throw', 'reject', 'signal', 'wrapped']) {
      const run = runOf(`node ${hook('pw-ends.cjs')} ${mode}`);
      const cold = await runCommand(run);
      // Pools of its own: exactly one run, in a waiting interpreter.
      const own = new PrewarmPools();
      try {
        own.run(run);
        await own.ready();
        const attempt = own.run(run);
        assert.ok('result' in attempt && attempt.shell === undefined, mode);
        const hot = await attempt.result;
        assert.deepEqual([hot.exitCode, hot.signal, hot.stdout], [cold.exitCode, cold.signal, cold.stdout], mode);
        // A stack trace names the frames that ran the script: its first lines are the same.
        const head = (text: string) => text.split('\n').slice(0, 5).join('\n');
        assert.equal(head(hot.stderr), head(cold.stderr), mode);
        assert.equal(hot.error, undefined, mode);
        assert.equal(own.counts.reported, early.includes(mode) ? 1 : 0, mode);
      } finally {
        own.close();
      }
    }
  });

  test('python: an uncaught exception prints the traceback and exits 1, as cold', async () => {
    // A relative script: the traceback shows it joined to the folder, unnormalised, as cold.
    const out = path.join(dir, 'raise.json');
    const run = runOf(`python3 ./pw-report.py '${out}' 99`, { cwd: HOOKS });
    const cold = await runCommand(run);
    const hot = await warm(run);
    assert.equal(cold.exitCode, 1);
    assert.equal(hot.exitCode, 1);
    assert.equal(hot.stderr, cold.stderr);
    assert.match(hot.stderr, /^Traceback \(most recent call last\):\n {2}File ".*\/\.\/pw-report\.py", line \d+, in <module>\n/);
  });

  test('python: an interrupt (KeyboardInterrupt) in a script or a -m module ends as cold: the same traceback, no loader frame, the same exit', async () => {
    const pkg = path.join(cwd, 'pwint');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, '__init__.py'), '');
    const body = ['import sys', 'sys.stdin.read()', 'def wait():', '    raise KeyboardInterrupt', 'wait()', ''].join('\n');
    fs.writeFileSync(path.join(pkg, 'stop.py'), body);
    // A script with its own hook, which its exit handler checks, with what sys kept of the error.
    const own = [
      'import atexit, sys, traceback',
      'sys.stdin.read()',
      'def mine(kind, value, tb):',
      '    print("mine:", kind.__name__, file=sys.stderr)',
      '    sys.__excepthook__(kind, value, tb)',
      'sys.excepthook = mine',
      'def bye():',
      '    names = [f.name for f in traceback.extract_tb(getattr(sys, "last_traceback", None))]',
      '    print("still mine:", sys.excepthook is mine, "frames:", names, flush=True)',
      'atexit.register(bye)',
      'raise KeyboardInterrupt',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(pkg, 'own.py'), own);
    for (const command of [`python3 ${path.join(pkg, 'stop.py')}`, 'python3 -m pwint.stop', `python3 ${path.join(pkg, 'own.py')}`]) {
      const cold = await runCommand(runOf(command));
      const hot = await warm(runOf(command));
      assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
      assert.match(cold.stderr, /KeyboardInterrupt/);
      assert.doesNotMatch(hot.stderr, /File "<string>"/, 'no frame of the loader');
      assert.deepEqual([hot.exitCode, hot.stdout, hot.stderr], [cold.exitCode, cold.stdout, cold.stderr], command);
    }
  });

  test('python: a json.py in the working folder is not imported, cold or warm (a workspace cannot run code that way)', async () => {
    const ws = path.join(dir, 'hostile');
    fs.mkdirSync(ws, { recursive: true });
    const pwned = path.join(dir, 'pwned');
    fs.writeFileSync(path.join(ws, 'json.py'), `open(${JSON.stringify(pwned)}, 'a').write('ran\\n')\n`);
    const out = path.join(dir, 'hostile.json');
    const run = runOf(`python3 ${hook('pw-report.py')} '${out}'`, { cwd: ws });
    const cold = await runCommand(run);
    const hot = await warm(run);
    assert.equal(cold.exitCode, 0, cold.stderr);
    assert.equal(hot.exitCode, 0, hot.stderr);
    assert.ok(hot.poolPids.length > 0, 'the second run found a waiting interpreter');
    assert.equal(fs.existsSync(pwned), false, "the working folder's json.py ran");
  });

  test('a timeout kills the hook and the child it started; nothing is left', async () => {
    const pids = path.join(dir, 'hang.pids');
    const run = runOf(`node ${hook('pw-hang.mjs')} '${pids}'`, { timeoutMs: 1500 });
    const attempt = (async () => warm(run))();
    const started = await pidsReady(pids, 2);
    const r = await attempt;
    assert.equal(r.timedOut, true);
    // The first line may come from the cold run that started the pool: the warm run's are last.
    const all = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(r.poolPids.includes(all.at(-2)!), 'the hung hook ran warm');
    assert.deepEqual(await survivors([...started, ...all]), []);
  });

  test('start-up options (node --no-warnings, python3 -u): the waiting interpreter starts with them, as the cold one does', async () => {
    for (const [interp, name] of [
      ['node --no-warnings', 'pw-report.mjs'],
      ['python3 -u', 'pw-report.py'],
    ] as const) {
      const coldOut = path.join(dir, `opt-${name}.cold.json`);
      const warmOut = path.join(dir, `opt-${name}.warm.json`);
      const cold = await runCommand(runOf(`${interp} ${hook(name)} '${coldOut}' 0`));
      const hot = await warm(runOf(`${interp} ${hook(name)} '${warmOut}' 0`));
      assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
      assert.equal(cold.exitCode, 0, cold.stderr);
      assert.equal(hot.exitCode, 0, hot.stderr);
      const a = read(coldOut) as Report & { origArgv?: string[]; unbuffered?: number };
      const b = read(warmOut) as Report & { origArgv?: string[]; unbuffered?: number };
      assert.ok(hot.poolPids.includes(b.pid));
      assert.deepEqual(b.execArgv, a.execArgv);
      assert.deepEqual(b.unbuffered, a.unbuffered);
      assert.deepEqual(
        b.origArgv?.map((w) => (w === warmOut ? coldOut : w)),
        a.origArgv,
      );
      if (name.endsWith('.py')) assert.equal(a.unbuffered, 1);
      else assert.deepEqual(a.execArgv, ['--no-warnings']);
    }
  });

  test("node -r: the preload is loaded at the event, before the script, seeing its argv; execArgv, stdout, stderr and exit code are a cold run's", async () => {
    const preload = path.join(dir, 'pre-report.cjs');
    const loads = path.join(dir, 'pre-loads.txt');
    fs.writeFileSync(
      preload,
      `require('node:fs').appendFileSync(${JSON.stringify(loads)}, JSON.stringify({ argv1: process.argv[1], main: require.main === undefined, execArgv: process.execArgv }) + '\\n');\n`,
    );
    const coldOut = path.join(dir, 'pre.cold.json');
    const warmOut = path.join(dir, 'pre.warm.json');
    const command = (out: string) => `node --no-warnings -r ${preload} ${hook('pw-report.mjs')} '${out}' 3`;
    const cold = await runCommand(runOf(command(coldOut)));
    const coldLoad = fs.readFileSync(loads, 'utf8');
    fs.rmSync(loads);
    // The pool's interpreters start and wait; the hook then runs in one: one load, at the event.
    const hot = await warm(runOf(command(warmOut)));
    assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
    assert.equal(fs.readFileSync(loads, 'utf8'), coldLoad, 'loaded once, at the event, as in a cold run');
    assert.deepEqual([hot.exitCode, hot.stdout, hot.stderr], [cold.exitCode, cold.stdout, cold.stderr]);
    const a = read(coldOut);
    const b = read(warmOut);
    assert.ok(hot.poolPids.includes(b.pid));
    assert.deepEqual(b.execArgv, ['--no-warnings', '-r', preload]);
    assert.deepEqual(b.execArgv, a.execArgv);
    assert.deepEqual(b.argv.slice(0, 1), a.argv.slice(0, 1));
    assert.equal(b.main, true);
  });

  test('python3 -m: the module is found at the event, with the argv, path, __main__ and orig_argv of a cold run; a missing module fails as cold', async () => {
    const pkg = path.join(cwd, 'pwmod');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, '__init__.py'), '');
    fs.writeFileSync(
      path.join(pkg, 'report.py'),
      [
        'import json, sys',
        'main = sys.modules["__main__"]',
        'print(json.dumps({"argv": sys.argv, "path0": sys.path[0], "orig": getattr(sys, "orig_argv", None), "name": __name__,',
        '  "file": __file__, "spec": __spec__.name, "package": __package__, "same_main": main.__dict__ is globals(),',
        '  "keys": sorted(k for k in globals() if k.startswith("__")), "stdin": sys.stdin.read()}))',
        'sys.exit(int(sys.argv[1]))',
        '',
      ].join('\n'),
    );
    const command = 'python3 -u -m pwmod.report 5 x';
    const cold = await runCommand(runOf(command));
    const hot = await warm(runOf(command));
    assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
    assert.equal(cold.exitCode, 5, cold.stderr);
    assert.deepEqual([hot.exitCode, hot.stdout, hot.stderr], [cold.exitCode, cold.stdout, cold.stderr]);
    const seen = JSON.parse(hot.stdout);
    assert.deepEqual(seen.argv, [path.join(pkg, 'report.py'), '5', 'x']);
    assert.equal(seen.path0, cwd);
    assert.equal(seen.spec, 'pwmod.report');
    assert.deepEqual(seen.orig.slice(-5), ['-u', '-m', 'pwmod.report', '5', 'x']);
    const missingCold = await runCommand(runOf('python3 -m pwmod.nothing'));
    const missingHot = await warm(runOf('python3 -m pwmod.nothing'));
    assert.deepEqual([missingHot.exitCode, missingHot.stderr], [missingCold.exitCode, missingCold.stderr]);
    assert.match(missingHot.stderr, /No module named pwmod\.nothing/);
  });

  test("an ES module hook using hookline/sdk runs warm; a project's `hookline` that is not Hookline's own byte for byte is never loaded while waiting", async () => {
    const project = path.join(dir, 'sdk-project');
    const copy = path.join(project, 'node_modules', 'hookline');
    const own = path.join(ROOT, 'dist', 'sdk');
    fs.mkdirSync(path.join(copy, 'dist', 'sdk'), { recursive: true });
    fs.writeFileSync(
      path.join(copy, 'package.json'),
      JSON.stringify({ name: 'hookline', type: 'module', exports: { './package.json': './package.json', './sdk': './dist/sdk/index.js' } }),
    );
    for (const f of ['index.js', 'claude.js', 'codex.js', 'copilot.js'])
      fs.copyFileSync(path.join(own, f), path.join(copy, 'dist', 'sdk', f));
    // One line more in the copy, which says when it runs.
    const marker = path.join(dir, 'sdk-copy-loaded');
    fs.appendFileSync(path.join(copy, 'dist', 'sdk', 'index.js'), `\nfs.appendFileSync(${JSON.stringify(marker)}, 'loaded\\n');\n`);
    const script = path.join(project, 'guard.mjs');
    fs.writeFileSync(
      script,
      `import { defineHook, deny, allow } from ${JSON.stringify(pathToFileURL(path.join(own, 'index.js')).href)};\n` +
        `await defineHook((input) => (String(input.tool_input?.command).includes('rm -rf') ? deny('no') : allow()));\n`,
    );
    const stdin = JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } });
    const hot = await warm(runOf(`node ${script}`, { cwd: project, stdin }));
    assert.equal(hot.shell, undefined, 'ran in a waiting interpreter');
    assert.equal(hot.exitCode, 0, hot.stderr);
    assert.equal(JSON.parse(hot.stdout).decision, 'deny');
    await pools.ready();
    assert.equal(fs.existsSync(marker), false, 'the copy that differs was not loaded');
  });

  test('what an interpreter cannot run as cold would runs in a waiting shell, and says why', async () => {
    const out = path.join(dir, 'flag.json');
    const r = await warm(runOf(`node --title=hookline-test ${hook('pw-report.mjs')} '${out}' 4`));
    assert.match(String(r.shell), /^interpreter option "--title=hookline-test": /);
    assert.equal(r.exitCode, 4);
    const seen = read(out);
    assert.deepEqual(seen.execArgv, ['--title=hookline-test']);
    assert.ok(r.poolPids.includes(seen.pid), 'the waiting sh became the hook (exec, same pid)');
    const missing = await warm(runOf(`node ${path.join(dir, 'missing.mjs')}`));
    assert.match(String(missing.shell), /not found/);
    assert.equal(missing.exitCode, 1);
    assert.match(missing.stderr, /Cannot find module/);
    // A preload in NODE_OPTIONS would run before the event in a waiting interpreter: it runs at the event.
    const preload = path.join(dir, 'preload.cjs');
    const loaded = path.join(dir, 'preloaded.txt');
    fs.writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(loaded)}, 'loaded\\n');\n`);
    const withPreload = runOf(`node ${hook('pw-report.mjs')} '${out}' 0`, { env: { ...ENV, NODE_OPTIONS: `--require ${preload}` } });
    pools.run(withPreload);
    await pools.ready();
    assert.equal(fs.existsSync(loaded), false, 'nothing is loaded while waiting');
    const attempt = pools.run(withPreload);
    assert.ok('result' in attempt && /NODE_OPTIONS preloads code/.test(String(attempt.shell)));
    const pre = await attempt.result;
    assert.equal(pre.exitCode, 0, pre.stderr);
    assert.equal(fs.readFileSync(loaded, 'utf8'), 'loaded\n');
  });

  test('a bash command in a waiting shell: argv, environment, cwd, stdin and exit code match a cold run', async () => {
    const coldDir = tmpDir('hookline-pwtest-c-');
    const warmDir = tmpDir('hookline-pwtest-w-');
    // Several lines, quotes and a variable the shell expands: the command reaches bash as written.
    const command = (d: string) => `x='it'"'"'s'\n${hook('run-capture.sh')} '${d}' "$x" "$HOOKLINE_TEST_VALUE" && exit 7`;
    const cold = await runCommand(runOf(command(coldDir)));
    const hot = await warm(runOf(command(warmDir)));
    assert.equal(hot.shell, 'not a simple command of literal words ("\\n" outside quotes)');
    assert.equal(cold.exitCode, 7);
    assert.equal(hot.exitCode, 7);
    const a = readCapture(coldDir);
    const b = readCapture(warmDir);
    assert.deepEqual(b.args, ["it's", 'a b "c"']);
    assert.deepEqual(b.args, a.args);
    assert.deepEqual(withoutRunId(b.env), withoutRunId(a.env));
    assert.equal(b.cwd, a.cwd);
    assert.equal(b.stdin, INPUT);
  });

  test('a pool whose folder was removed and made again is closed; the hook runs cold in the new folder', async () => {
    const where = tmpDir('hookline-pwtest-f-');
    const run = runOf(`pwd -P; echo {}`, { cwd: where });
    pools.run(run);
    await pools.ready();
    const waiting = pools
      .info()
      .filter((i) => i.cwd === where)
      .flatMap((i) => i.pids);
    assert.ok(waiting.length > 0);
    fs.rmSync(where, { recursive: true });
    fs.mkdirSync(where);
    const attempt = pools.run(run);
    assert.ok('cold' in attempt && /changed/.test(attempt.cold), JSON.stringify(attempt));
    assert.deepEqual(await survivors(waiting), []);
    const cold = await runCommand(run);
    assert.equal(cold.stdout.split('\n')[0], fs.realpathSync(where));
  });

  test('closing the pools kills every waiting interpreter', async () => {
    const p = new PrewarmPools();
    p.run(runOf(`python3 ${hook('pw-report.py')} /dev/null`));
    p.run(runOf(`node ${hook('pw-report.mjs')} /dev/null`));
    await p.ready();
    const pids = p.info().flatMap((i) => i.pids);
    assert.equal(pids.length, 4);
    assert.ok(p.rssKiB() > 0);
    p.close();
    assert.deepEqual(await survivors(pids), []);
  });
});

describe('loader folders', () => {
  test("a killed process's loader folder is removed by the next one that makes its own", () => {
    // A process id that is surely gone: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const orphan = fs.mkdtempSync(path.join(os.tmpdir(), `hookline-prewarm-${gone}-`));
    fs.writeFileSync(path.join(orphan, 'loader.cjs'), '');
    const mine = fs.mkdtempSync(path.join(os.tmpdir(), `hookline-prewarm-${process.pid}-`));
    const boot = path.join(ROOT, 'src', 'run', 'prewarm-boot.ts');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', `import(${JSON.stringify(boot)}).then((m) => { m.loaderArgs('node'); m.removeLoaders(); })`],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(orphan), false, "the dead process's folder is gone");
    assert.equal(fs.existsSync(mine), true, "a live process's folder stays");
    fs.rmSync(mine, { recursive: true, force: true });
  });
});

describe('pre-warming from settings', () => {
  const engines: HookEngine[] = [];
  after(() => engines.forEach((e) => e.close()));
  const bt = { tool_name: 'run_shell_command', tool_input: { command: 'ls' } };

  async function engineWith(settings: Record<string, unknown>, hookExtra: Record<string, unknown>, out: string) {
    const p = makeProject({
      project: { ...settings, hooks: { BeforeTool: [{ hooks: [cmd(`node ${hook('pw-report.mjs')} '${out}'`, hookExtra)] }] } },
    });
    const e = new HookEngine({ cwd: p.dir, env: p.env, watchConfig: false });
    engines.push(e);
    return e;
  }

  const poolOf = (e: HookEngine) => poolsOf((e as unknown as { persistent: Map<string, unknown> }).persistent);

  test('"prewarm": true on a hook: the next event runs in a waiting interpreter; closing the engine leaves no process', async () => {
    const out = tmpDir('hookline-pwtest-e-');
    const e = await engineWith({}, { prewarm: true }, path.join(out, 'r.json'));
    const first = await e.fire('BeforeTool', bt);
    assert.equal(first.runs[0].success, true, String(first.runs[0].error));
    const pools = poolOf(e);
    assert.ok(pools, 'pools were started');
    await pools.ready();
    const waiting = pools.info().flatMap((i) => i.pids);
    assert.equal(waiting.length, 2);
    const second = await e.fire('BeforeTool', bt);
    assert.equal(second.runs[0].success, true, String(second.runs[0].error));
    assert.equal(second.output?.systemMessage, 'esm');
    const report: Report = JSON.parse(fs.readFileSync(path.join(out, 'r.json'), 'utf8'));
    assert.ok(waiting.includes(report.pid));
    assert.equal(pools.counts.warm, 1);
    await pools.ready();
    const left = pools.info().flatMap((i) => i.pids);
    e.close();
    assert.deepEqual(await survivors([...left, report.pid]), []);
  });

  test('events closer together than the pool takes to refill still find interpreters waiting', async () => {
    const out = tmpDir('hookline-pwtest-e-');
    const e = await engineWith({}, { prewarm: true }, path.join(out, 'r.json'));
    // No untimed wait for the pools anywhere: events every ~20 ms, as a BeforeTool and an AfterTool around a fast tool.
    for (let i = 0; i < 40; i++) {
      const r = await e.fire('BeforeTool', bt);
      assert.equal(r.runs[0].success, true, String(r.runs[0].error));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pools = poolOf(e);
    assert.ok(pools);
    assert.ok(pools.counts.warm >= 30, JSON.stringify(pools.counts));
  });

  /** An engine on `group`, fired twice (its key seen twice) and its waiting shells up; `waiting()` counts them. */
  async function withWaitingShells(group: Record<string, unknown>) {
    const p = makeProject({ project: { hooks: { BeforeTool: [group] } } });
    const e = new HookEngine({ cwd: p.dir, env: p.env, watchConfig: false });
    engines.push(e);
    await e.fire('BeforeTool', bt);
    await e.fire('BeforeTool', bt);
    const pools = poolOf(e);
    assert.ok(pools);
    await pools.ready();
    return { e, pools, waiting: () => pools.info().reduce((n, i) => n + i.pids.length, 0) };
  }

  test('no waiting process is started between the hooks of a sequential chain: the pool refills once the event is done', async () => {
    // Each hook sleeps longer than a pool waits before it refills.
    const hooks = [0, 1, 2, 3].map((j) => cmd(`cat >/dev/null; sleep 0.12; echo '{}' # ${j}`));
    const { e, pools, waiting } = await withWaitingShells({ sequential: true, hooks });
    const before = waiting();
    assert.ok(before >= 2, `waiting shells before the event: ${before}`);
    const during: number[] = [];
    e.on('hookStart', (h) => h.index > 1 && during.push(waiting()));
    const r = await e.fire('BeforeTool', bt);
    assert.ok(r.runs.every((x) => x.success));
    // Taken one by one, none started meanwhile: each later hook sees fewer waiting.
    for (let i = 1; i < during.length; i++) assert.ok(during[i]! <= during[i - 1]!, `waiting shells by hook: ${during.join(', ')}`);
    assert.ok(during.at(-1)! < before, `waiting shells by hook: ${during.join(', ')}`);
    await pools.ready();
    assert.ok(waiting() >= before, 'the pool refilled after the event');
  });

  test('an event fired as soon as the last one is done (an AfterTool after a fast tool) runs in the second waiting shell, and the pool starts none while it runs', async () => {
    const { e, pools, waiting } = await withWaitingShells({ hooks: [cmd(`cat >/dev/null; sleep 0.6; echo '{}'`)] });
    assert.equal(waiting(), 2);
    const during: number[] = [];
    e.on('hookStart', () => setTimeout(() => during.push(waiting()), 50));
    const shells = pools.counts.shell;
    // Back to back: the second fire starts before the first one's end has let the event loop turn.
    await e.fire('BeforeTool', bt).then(() => e.fire('BeforeTool', bt));
    assert.equal(pools.counts.shell - shells, 2, JSON.stringify(pools.counts));
    assert.deepEqual(during, [1, 0], 'no waiting shell is started while the next event runs');
    await pools.ready();
    assert.equal(waiting(), 2, 'the pool refilled once both were done');
  });

  test('back-to-back events of several hooks each: once the pool has grown, every hook of both runs in a waiting shell', async () => {
    const hooks = [0, 1, 2, 3, 4, 5].map((j) => cmd(`cat >/dev/null; echo '{}' # ${j}`));
    const { e, pools, waiting } = await withWaitingShells({ sequential: true, hooks });
    const pair = () => e.fire('BeforeTool', bt).then(() => e.fire('BeforeTool', bt));
    // The pool learns how many an event and the one right after it take.
    for (let i = 0; i < 3; i++) {
      await pair();
      await pools.ready();
    }
    assert.ok(waiting() >= 12, `waiting shells: ${waiting()}`);
    const before = { ...pools.counts };
    const [a, b] = await e.fire('BeforeTool', bt).then(async (first) => [first, await e.fire('BeforeTool', bt)]);
    assert.ok([...a.runs, ...b.runs].every((r) => r.success));
    assert.equal(pools.counts.cold - before.cold, 0, JSON.stringify(pools.counts));
  });

  test('a pool refills one shell per turn of the event loop: a timer due meanwhile runs before the fill is done', async () => {
    const hooks = [0, 1, 2, 3, 4, 5].map((j) => cmd(`cat >/dev/null; echo '{}' # ${j}`));
    const { e, pools, waiting } = await withWaitingShells({ hooks });
    await e.fire('BeforeTool', bt);
    await pools.ready();
    const full = waiting();
    assert.ok(full >= 6, `waiting shells: ${full}`);
    await e.fire('BeforeTool', bt);
    const left = waiting();
    // The refill starts right after the event; a timer set now sees it part done, not whole.
    const seen = await new Promise<number>((resolve) => {
      const poll = setInterval(() => {
        if (waiting() > left) {
          clearInterval(poll);
          resolve(waiting());
        }
      }, 0);
    });
    assert.ok(seen < full, `the first turn that saw the refill saw ${seen} of ${full} shells`);
    await pools.ready();
    assert.equal(waiting(), full);
  });

  test('drain() stops a refill under way: no waiting shell starts after it', async () => {
    const hooks = [0, 1, 2, 3, 4, 5].map((j) => cmd(`cat >/dev/null; echo '{}' # ${j}`));
    const { e, pools, waiting } = await withWaitingShells({ hooks });
    await e.fire('BeforeTool', bt);
    await pools.ready();
    assert.ok(waiting() >= 6);
    // The event takes the shells; the refill starts right after it, one shell per turn.
    await e.fire('BeforeTool', bt);
    await drain();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(waiting(), 0, 'nothing started after the drain');
    // The next use fills again.
    await e.fire('BeforeTool', bt);
    await pools.ready();
    assert.ok(waiting() > 0);
  });

  test("a pool due to refill while another engine's event runs long refills after a while (it does not wait for that event forever)", async () => {
    const a = await withWaitingShells({ hooks: [cmd(`cat >/dev/null; echo '{}'`)] });
    const b = await withWaitingShells({ hooks: [cmd(`cat >/dev/null; sleep 2.5; echo '{}'`)] });
    assert.equal(a.waiting(), 2);
    const slow = b.e.fire('BeforeTool', bt);
    assert.ok((await a.e.fire('BeforeTool', bt)).runs[0]?.success);
    assert.equal(a.waiting(), 1);
    await new Promise((r) => setTimeout(r, 1800));
    assert.equal(a.waiting(), 2, 'refilled within the hold, with the other event still running');
    // A caller that waits for the pools gets them, whatever runs meanwhile.
    b.pools.close();
    const busyReady = b.e.fire('BeforeTool', bt);
    await a.pools.ready();
    assert.equal(a.waiting(), 2);
    assert.ok((await slow).runs[0]?.success);
    assert.ok((await busyReady).runs[0]?.success);
  });

  test("no engine's pool starts a waiting process while another engine of the process runs an event; it does once that event is done", async () => {
    const a = await withWaitingShells({ hooks: [cmd(`cat >/dev/null; echo '{}'`)] });
    const b = await withWaitingShells({ hooks: [cmd(`cat >/dev/null; sleep 0.6; echo '{}'`)] });
    assert.equal(a.waiting(), 2);
    const slow = b.e.fire('BeforeTool', bt);
    // A's event takes one of its shells and ends while B's still runs: well past the moment A's
    // pool would refill on its own, none is started.
    assert.ok((await a.e.fire('BeforeTool', bt)).runs[0]?.success);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(a.waiting(), 1, "no shell started during the other engine's event");
    assert.ok((await slow).runs[0]?.success);
    const deadline = Date.now() + 5000;
    while (a.waiting() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(a.waiting(), 2, 'refilled once no event ran');
  });

  test('hooksConfig.prewarm: true pre-warms every hook; a hook\'s own "prewarm": false wins', async () => {
    const out = tmpDir('hookline-pwtest-e-');
    const all = await engineWith({ hooksConfig: { prewarm: true } }, {}, path.join(out, 'a.json'));
    assert.equal(all.hooks()[0].prewarm, true);
    await all.fire('BeforeTool', bt);
    assert.ok(poolOf(all), 'pools were started');
    const off = await engineWith({ hooksConfig: { prewarm: true } }, { prewarm: false }, path.join(out, 'b.json'));
    await off.fire('BeforeTool', bt);
    assert.equal(poolOf(off), undefined);
  });

  test('by default a one-shot hook runs in a waiting shell once its key was seen twice, its interpreter still cold; "prewarm": false runs it cold', async () => {
    const out = tmpDir('hookline-pwtest-e-');
    const e = await engineWith({}, {}, path.join(out, 'd.json'));
    assert.equal(e.hooks()[0].prewarm, undefined);
    const settle = () => new Promise((r) => setTimeout(r, 300));
    await e.fire('BeforeTool', bt);
    const pools = poolOf(e);
    assert.ok(pools, 'the pool is known');
    await settle();
    assert.deepEqual(
      pools.info().flatMap((i) => i.pids),
      [],
      'one event starts no waiting shell',
    );
    await e.fire('BeforeTool', bt);
    // The second event of the same key starts them (untimed: they are up long before a next event).
    const deadline = Date.now() + 5000;
    while (!pools.info().some((i) => i.ready > 0) && Date.now() < deadline) await settle();
    assert.deepEqual(
      pools.info().map((i) => i.kind),
      ['shell'],
    );
    const third = await e.fire('BeforeTool', bt);
    assert.equal(third.output?.systemMessage, 'esm');
    assert.deepEqual(pools.counts, { warm: 0, shell: 1, cold: 2, reported: 0 });
    const report: Report = JSON.parse(fs.readFileSync(path.join(out, 'd.json'), 'utf8'));
    assert.ok(
      report.argv.some((a) => a.endsWith('pw-report.mjs')),
      'node started on the script, as cold',
    );
    for (const off of [
      [{}, { prewarm: false }],
      [{ hooksConfig: { prewarm: false } }, {}],
    ] as const) {
      const cold = await engineWith(off[0], off[1], path.join(out, 'c.json'));
      await cold.fire('BeforeTool', bt);
      await cold.fire('BeforeTool', bt);
      assert.equal(poolOf(cold), undefined, JSON.stringify(off));
    }
  });

  test('waiting shells keep no one alive: a script that fired and never closed its engine exits, and leaves no process', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd('cat >/dev/null; echo {}')] }] } } });
    const mod = path.join(ROOT, 'dist', 'engine', 'index.js');
    const script = `import { HookEngine } from ${JSON.stringify(mod)};
const e = new HookEngine({ cwd: ${JSON.stringify(p.dir)}, watchConfig: false });
for (let i = 0; i < 3; i++) { await e.fire('BeforeTool', { tool_name: 'x', tool_input: {} }); await new Promise((r) => setTimeout(r, 100)); }
const pools = e['persistent'].get('\\0prewarm');
process.stdout.write(JSON.stringify({ counts: pools.counts, pids: pools.info().flatMap((i) => i.pids) }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: p.env, encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    const { counts, pids } = JSON.parse(r.stdout) as { counts: { shell: number }; pids: number[] };
    assert.ok(counts.shell >= 1, 'later events ran in waiting shells');
    assert.ok(pids.length > 0, 'shells were waiting when the script ended');
    assert.deepEqual(await survivors(pids), []);
  });

  test('a non-boolean "prewarm" is a one-line error naming the file and field', () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd('node x.js', { prewarm: 'yes' })] }] } } });
    const e = new HookEngine({ cwd: p.dir, env: p.env, watchConfig: false });
    engines.push(e);
    const problem = e.problems.find((x) => x.path.endsWith('.prewarm'));
    assert.ok(problem, JSON.stringify(e.problems));
    assert.equal(problem.severity, 'error');
    assert.match(problem.message, /"prewarm" must be true or false/);
    assert.ok(problem.file.endsWith('settings.json'));
  });

  test('a non-boolean hooksConfig.prewarm or trace setting is an error too; "prewarm" on a persistent hook a warning', () => {
    const p = makeProject({
      user: { hooksConfig: { prewarm: 'yes' }, trace: { enabled: 'no' } },
      project: { hooks: { BeforeTool: [{ hooks: [cmd('node x.js', { prewarm: true, persistent: true })] }] } },
    });
    const e = new HookEngine({ cwd: p.dir, env: p.env, watchConfig: false });
    engines.push(e);
    const at = (end: string) => e.problems.find((x) => x.path.endsWith(end));
    assert.equal(at('hooksConfig.prewarm')?.severity, 'error', JSON.stringify(e.problems));
    assert.match(at('trace.enabled')?.message ?? '', /"trace.enabled" must be true or false/);
    assert.ok(e.problems.some((x) => x.severity === 'warning' && /no effect on a persistent hook/.test(x.message)));
  });
});
