// Hookline installed inside the real Claude Code, Codex, Copilot CLI and Gemini CLI (`hookline install`), each
// offline on the loopback model server: a reviewed Hookline guard refuses a command and it does
// not run, another agent's hook set runs inside the agent, an untrusted or changed script is
// held back with a visible line, a broken relay or configuration refuses instead of allowing,
// and `uninstall` gives the agent's file back. Run with `npm run test:agents`.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { AGENTS, agentBin } from './agents.js';
import { prepareCopilot } from './copilot.js';
import {
  closeBox,
  geminiUserSettings,
  guardScript,
  hookline,
  makeBox,
  ran,
  runAgent,
  servers,
  shellTurn,
  write,
  type Box,
} from './inside.js';

const done = { text: 'finished' };

/** Hookline's own (Gemini-format) settings with one BeforeTool guard. */
function hooklineGuard(file: string, script: string): void {
  write(
    file,
    `${JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: script }] }] } }, null, 2)}\n`,
  );
}

async function installed(box: Box, args: string[]): Promise<void> {
  const r = await hookline(box, ['install', ...args, '--yes']);
  assert.equal(r.code, 0, `hookline install ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

async function withBox(fn: (box: Box) => Promise<void>): Promise<void> {
  const box = makeBox();
  try {
    await fn(box);
  } finally {
    closeBox(box);
  }
}

describe(`Hookline inside Claude Code ${AGENTS.claude.version}`, { concurrency: 2 }, () => {
  before(() => agentBin(AGENTS.claude), { timeout: 600_000 });

  test('a Hookline guard refuses the command, the model sees why, and uninstall gives the file back', { timeout: 300_000 }, () =>
    withBox(async (box) => {
      const settings = path.join(box.home, '.claude', 'settings.json');
      const own = '{\n  "model": "opus",\n  "hooks": {}\n}\n';
      write(settings, own);
      hooklineGuard(path.join(box.home, '.gemini', 'settings.json'), guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'gemini'));
      await installed(box, ['claude']);
      assert.equal((await hookline(box, ['install', 'claude', '--yes'])).stdout.includes('already installed'), true);
      const r = await runAgent('claude', box, [shellTurn('claude', 1), shellTurn('claude', 2), done]);
      assert.equal(ran(box, 1), false, 'the refused command ran');
      assert.equal(ran(box, 2), true, 'a command the guard lets through did not run');
      assert.match(r.shown, /HK-guard refuses ran-1/);
      // A second event reached the warm server the first one started.
      assert.equal(servers(box).length, 1);
      const u = await hookline(box, ['uninstall', 'claude']);
      assert.match(u.stdout, /back as it was/);
      assert.equal(fs.readFileSync(settings, 'utf8'), own);
    }),
  );

  test(
    'an untrusted project hook is held back with a line the user sees; trusted it runs; changed it is held again',
    { timeout: 400_000 },
    () =>
      withBox(async (box) => {
        const script = guardScript(path.join(box.project, '.hookline', 'guard.sh'), 'ran-', 'gemini');
        hooklineGuard(path.join(box.project, '.gemini', 'settings.json'), script);
        await installed(box, ['claude']);
        const held = await runAgent('claude', box, [shellTurn('claude', 1), done]);
        assert.equal(ran(box, 1), true, 'a hook nobody reviewed decided');
        assert.match(
          held.exited.stdout,
          /Hookline held back 1 hook\(s\) not trusted here \(guard\): review them with `hookline trust --check/,
        );
        assert.equal((await hookline(box, ['trust', box.project])).code, 0);
        await runAgent('claude', box, [shellTurn('claude', 2), done]);
        assert.equal(ran(box, 2), false, 'the trusted guard did not refuse');
        fs.appendFileSync(script, '# changed\n');
        const again = await runAgent('claude', box, [shellTurn('claude', 3), done]);
        assert.equal(ran(box, 3), true, 'a changed script ran unreviewed');
        assert.match(again.exited.stdout, /Hookline held back/);
      }),
  );

  test('with the server killed, a broken Hookline configuration, or the relay gone, the guard event is refused', { timeout: 400_000 }, () =>
    withBox(async (box) => {
      const gemini = path.join(box.home, '.gemini', 'settings.json');
      hooklineGuard(gemini, guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'gemini'));
      await installed(box, ['claude']);
      await runAgent('claude', box, [shellTurn('claude', 2), done]);
      assert.equal(ran(box, 2), true);
      for (const pid of servers(box)) process.kill(pid, 'SIGKILL');
      await runAgent('claude', box, [shellTurn('claude', 1), done]);
      assert.equal(ran(box, 1), false, 'the guard let the command through once its server was gone');
      // A Hookline configuration that does not read may hide the guard: refused, naming the file.
      fs.writeFileSync(gemini, '{"hooks": {"BeforeTool": [oops');
      const broken = await runAgent('claude', box, [shellTurn('claude', 3), done]);
      assert.equal(ran(box, 3), false, 'a broken configuration allowed the command');
      // The prompt itself is a guard event: it is refused before the model is asked, and the user is told why.
      assert.match(broken.exited.stdout, /Hookline could not decide \(.*settings\.json/);
      // The relay itself gone (Hookline moved or removed): Claude Code's onFailure "block" refuses.
      const settings = path.join(box.home, '.claude', 'settings.json');
      fs.writeFileSync(settings, fs.readFileSync(settings, 'utf8').replace(/relay\.(cjs|sh)/g, 'relay-gone.$1'));
      hooklineGuard(gemini, path.join(box.home, 'guard.sh'));
      await runAgent('claude', box, [shellTurn('claude', 4), done]);
      assert.equal(ran(box, 4), false, 'a missing relay allowed the command');
    }),
  );

  test(
    "Claude Code over loopback: the server gone in the middle of a turn refuses the guarded command; another user's program on the port gets nothing and the prompt is refused, naming the fix",
    { timeout: 400_000 },
    () =>
      withBox(async (box) => {
        const gemini = path.join(box.home, '.gemini', 'settings.json');
        // The guard itself takes the server down on its first call: the event gets no answer.
        const killer = path.join(box.home, 'killer.sh');
        write(killer, `#!/usr/bin/env bash\ncat >/dev/null\nkill -9 "$(cat "$HOME/.gemini/hookline/hookline.sock.pid")"\n`, 0o755);
        hooklineGuard(gemini, killer);
        await installed(box, ['claude']);
        const settings = JSON.parse(fs.readFileSync(path.join(box.home, '.claude', 'settings.json'), 'utf8'));
        const url = new URL(settings.hooks.PostToolUse.at(-1).hooks[0].url as string);
        assert.equal(url.hostname, '127.0.0.1');
        const r = await runAgent('claude', box, [shellTurn('claude', 1), done]);
        assert.equal(ran(box, 1), false, 'the command ran with its guard unanswered');
        assert.match(r.shown, /PreToolUse/);
        assert.equal(servers(box).length, 0);
        // Another user's program on the port, answering every post with an allow: nothing is sent to it, the prompt is refused.
        if (process.geteuid?.() !== 0) return;
        const squatter = spawn(
          process.execPath,
          ['-e', `require('http').createServer((q,s)=>s.end('{}')).listen(${url.port},'127.0.0.1',()=>console.log('up'))`],
          { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        await new Promise((ok) => squatter.stdout.once('data', ok));
        try {
          hooklineGuard(gemini, guardScript(path.join(box.home, 'guard.sh'), 'ran-2', 'gemini'));
          const held = await runAgent('claude', box, [shellTurn('claude', 2), done]);
          assert.equal(ran(box, 2), false, 'the command ran with the port in other hands');
          assert.match(`${held.shown}${held.exited.stdout}`, /is taken by another program — run `hookline install claude --port \d+`/);
        } finally {
          squatter.kill('SIGKILL');
        }
      }),
  );
});

describe(`Hookline inside Gemini CLI ${AGENTS.gemini.version}`, { concurrency: 2 }, () => {
  before(() => agentBin(AGENTS.gemini), { timeout: 600_000 });

  test("Claude Code's hooks run inside Gemini CLI: its guard refuses the command and the model sees why", { timeout: 300_000 }, () =>
    withBox(async (box) => {
      const settings = geminiUserSettings(box);
      const own = fs.readFileSync(settings, 'utf8');
      const guard = guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'claude');
      write(
        path.join(box.home, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } }),
      );
      const none = await hookline(box, ['install', 'gemini', '--yes']);
      assert.notEqual(none.code, 0);
      assert.match(none.stderr, /give --hooks-from claude/);
      await installed(box, ['gemini', '--hooks-from', 'claude']);
      const r = await runAgent('gemini', box, [shellTurn('gemini', 1), shellTurn('gemini', 2), done]);
      assert.equal(ran(box, 1), false, 'the refused command ran');
      assert.equal(ran(box, 2), true, 'a command the guard lets through did not run');
      assert.match(r.shown, /HK-guard refuses ran-1/);
      const u = await hookline(box, ['uninstall', 'gemini']);
      assert.equal(u.code, 0, u.stderr);
      // Gemini CLI may rewrite its own file: then only Hookline's entries go, and the user's keys stay.
      const after = fs.readFileSync(settings, 'utf8');
      if (/back as it was/.test(u.stdout)) assert.equal(after, own);
      else {
        assert.match(u.stdout, /only Hookline's 11 entries were removed/);
        assert.deepEqual(JSON.parse(after).security, JSON.parse(own).security);
        assert.equal(/relay\.(cjs|sh)/.test(after), false);
      }
    }),
  );

  test('the relay gone or a broken Claude Code file: the guard event is refused, not allowed', { timeout: 300_000 }, () =>
    withBox(async (box) => {
      geminiUserSettings(box);
      const claude = path.join(box.home, '.claude', 'settings.json');
      write(claude, '{"hooks": {"PreToolUse": [oops');
      await installed(box, ['gemini', '--hooks-from', 'claude']);
      const broken = await runAgent('gemini', box, [shellTurn('gemini', 1), done]);
      assert.equal(ran(box, 1), false, 'a broken Claude Code file allowed the command');
      assert.match(broken.exited.stdout + broken.exited.stderr, /Hookline could not decide \(.*settings\.json/);
      write(claude, '{}');
      const settings = path.join(box.home, '.gemini', 'settings.json');
      fs.writeFileSync(settings, fs.readFileSync(settings, 'utf8').replace(/relay\.(cjs|sh)/g, 'relay-gone.$1'));
      await runAgent('gemini', box, [shellTurn('gemini', 2), done]);
      assert.equal(ran(box, 2), false, 'a missing relay allowed the command');
    }),
  );
});

describe(`Hookline inside Codex ${AGENTS.codex.version}`, { concurrency: 2 }, () => {
  before(() => agentBin(AGENTS.codex), { timeout: 600_000 });

  test(
    'a Hookline guard refuses the command in Codex, which runs the entries as installed (their review recorded), and uninstall removes them',
    { timeout: 300_000 },
    () =>
      withBox(async (box) => {
        hooklineGuard(path.join(box.home, '.gemini', 'settings.json'), guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'gemini'));
        const hooks = path.join(box.home, '.codex', 'hooks.json');
        await installed(box, ['codex']);
        assert.match(fs.readFileSync(path.join(box.home, '.codex', 'config.toml'), 'utf8'), /trusted_hash = "sha256:/);
        const r = await runAgent('codex', box, [shellTurn('codex', 1), shellTurn('codex', 2), done]);
        assert.equal(ran(box, 1), false, `the refused command ran:\n${r.exited.stdout.slice(-2000)}`);
        assert.equal(ran(box, 2), true, 'a command the guard lets through did not run');
        assert.match(r.shown, /HK-guard refuses ran-1/);
        const u = await hookline(box, ['uninstall', 'codex']);
        assert.equal(u.code, 0, u.stderr);
        assert.match(u.stdout, /back as it was/);
        assert.equal(fs.existsSync(hooks), false, 'the hooks file Hookline created is still there');
      }),
  );

  test("Claude Code's hooks run inside Codex; with the relay gone the guard event is refused", { timeout: 300_000 }, () =>
    withBox(async (box) => {
      const guard = guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'claude');
      write(
        path.join(box.home, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } }),
      );
      await installed(box, ['codex', '--hooks-from', 'claude']);
      const r = await runAgent('codex', box, [shellTurn('codex', 1), shellTurn('codex', 2), done]);
      assert.equal(ran(box, 1), false, 'the refused command ran');
      assert.equal(ran(box, 2), true);
      assert.match(r.shown, /HK-guard refuses ran-1/);
      const hooks = path.join(box.home, '.codex', 'hooks.json');
      fs.writeFileSync(hooks, fs.readFileSync(hooks, 'utf8').replace(/relay\.(cjs|sh)/g, 'relay-gone.$1'));
      // Codex holds a changed hook back until reviewed; the user reviews the change.
      assert.equal((await hookline(box, ['trust', box.project])).code, 0);
      await runAgent('codex', box, [shellTurn('codex', 3), done]);
      assert.equal(ran(box, 3), false, 'a missing relay allowed the command');
    }),
  );
});

describe(`Hookline inside Copilot CLI ${AGENTS.copilot.version}`, { concurrency: 2 }, () => {
  before(
    async () => {
      agentBin(AGENTS.copilot);
      await prepareCopilot();
    },
    { timeout: 600_000 },
  );

  test(
    "a Hookline guard refuses the shell command in Copilot CLI, the model sees why, and uninstall leaves the user's hooks folder as it was",
    { timeout: 300_000 },
    () =>
      withBox(async (box) => {
        const folder = path.join(box.home, '.copilot', 'hooks');
        const mine = path.join(folder, 'mine.json');
        const own = '{\n  "version": 1,\n  "hooks": {}\n}\n';
        write(mine, own);
        hooklineGuard(path.join(box.home, '.gemini', 'settings.json'), guardScript(path.join(box.home, 'guard.sh'), 'ran-1', 'gemini'));
        await installed(box, ['copilot']);
        assert.match((await hookline(box, ['install', 'copilot', '--yes'])).stdout, /already installed/);
        const r = await runAgent('copilot', box, [shellTurn('copilot', 1), shellTurn('copilot', 2), done]);
        assert.equal(ran(box, 1), false, `the refused command ran:\n${r.exited.stdout}${r.exited.stderr}`);
        assert.equal(ran(box, 2), true, `a command the guard lets through did not run:\n${r.exited.stdout}${r.exited.stderr}`);
        // Copilot CLI's words around Hookline's reason.
        assert.match(r.shown, /Denied by preToolUse hook: HK-guard refuses ran-1/);
        assert.equal(servers(box).length, 1);
        const u = await hookline(box, ['uninstall', 'copilot']);
        assert.equal(u.code, 0, u.stderr);
        assert.match(u.stdout, /back as it was/);
        assert.deepEqual(fs.readdirSync(folder), ['mine.json']);
        assert.equal(fs.readFileSync(mine, 'utf8'), own);
      }),
  );

  test(
    "a guard written by hookline init --dialect copilot passes its fixtures and refuses rm -rf in Copilot CLI, in Copilot's words",
    { timeout: 300_000 },
    () =>
      withBox(async (box) => {
        const init = await hookline(box, ['init', '--dialect', 'copilot']);
        assert.equal(init.code, 0, init.stderr);
        const t = await hookline(box, ['test']);
        assert.equal(t.code, 0, t.stdout + t.stderr);
        const rm = { tools: [{ name: 'bash', input: { command: 'mkdir -p build && rm -rf build && touch ran-1', description: 'clean' } }] };
        // A workspace hook: Copilot CLI runs it in `-p` only in a folder it is told to trust.
        const r = await runAgent('copilot', box, [rm, shellTurn('copilot', 2), done], 'go', ['--trust-folder']);
        assert.equal(ran(box, 1), false, `the refused command ran:\n${r.exited.stdout}${r.exited.stderr}`);
        assert.equal(fs.existsSync(path.join(box.project, 'build')), false);
        assert.equal(ran(box, 2), true, 'a command the guard lets through did not run');
        assert.match(r.shown, /Denied by preToolUse hook: rm -rf is not allowed here \(guard\)/);
      }),
  );

  test(
    'an untrusted project hook is held back in Copilot CLI: the user sees the line, the model is told at the tool call; trusted it runs',
    { timeout: 300_000 },
    () =>
      withBox(async (box) => {
        const script = guardScript(path.join(box.project, '.hookline', 'guard.sh'), 'ran-', 'gemini');
        write(
          path.join(box.project, '.gemini', 'settings.json'),
          `${JSON.stringify({
            hooks: {
              SessionStart: [{ hooks: [{ type: 'command', name: 'start', command: 'true' }] }],
              BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: script }] }],
            },
          })}\n`,
        );
        await installed(box, ['copilot']);
        const held = await runAgent('copilot', box, [shellTurn('copilot', 1), done]);
        assert.equal(ran(box, 1), true, 'a hook nobody reviewed decided');
        // Copilot CLI shows a hook's stderr when it exits 2 (off preToolUse), marked `!`, as markdown, wrapped.
        assert.match(held.exited.stderr, /! hookline: Hookline held back 1 hook\(s\) not trusted here \(start\): review them with/);
        assert.match(held.shown, /Hookline held back 1 hook\(s\) not trusted here \(guard\)/);
        assert.equal((await hookline(box, ['trust', box.project])).code, 0);
        const trusted = await runAgent('copilot', box, [shellTurn('copilot', 2), done]);
        assert.equal(ran(box, 2), false, 'the trusted guard did not refuse');
        assert.match(trusted.shown, /Denied by preToolUse hook: HK-guard refuses ran-/);
        assert.doesNotMatch(trusted.exited.stdout + trusted.exited.stderr, /held back/);
      }),
  );

  test(
    'with the relay gone the tool call and the prompt are refused; a broken Hookline configuration refuses too',
    { timeout: 400_000 },
    () =>
      withBox(async (box) => {
        const gemini = path.join(box.home, '.gemini', 'settings.json');
        hooklineGuard(gemini, guardScript(path.join(box.home, 'guard.sh'), 'ran-9', 'gemini'));
        await installed(box, ['copilot']);
        const file = path.join(box.home, '.copilot', 'hooks', 'hookline.json');
        const entries = JSON.parse(fs.readFileSync(file, 'utf8'));
        const gone = (event: string) => {
          const broken = structuredClone(entries);
          broken.hooks[event][0].bash = broken.hooks[event][0].bash.replace(/relay\.(cjs|sh)/g, 'relay-gone.$1');
          fs.writeFileSync(file, JSON.stringify(broken, null, 2));
        };
        // The relay of preToolUse gone (Node exits 1): Copilot CLI refuses the call.
        gone('preToolUse');
        const tool = await runAgent('copilot', box, [shellTurn('copilot', 1), done]);
        assert.equal(ran(box, 1), false, 'a missing relay allowed the command');
        assert.match(tool.shown, /Denied by preToolUse hook/);
        // The relay of userPromptSubmitted gone: the entry's own refusal stops the prompt before the model is asked.
        gone('userPromptSubmitted');
        const prompt = await runAgent('copilot', box, [shellTurn('copilot', 2), done]);
        assert.equal(ran(box, 2), false, 'a missing relay let the prompt through');
        assert.equal(prompt.requests.filter((q) => q.main).length, 0, 'the model was asked');
        assert.match(prompt.exited.stdout + prompt.exited.stderr, /Hookline could not start/);
        // A Hookline configuration that does not read may hide the guard: refused, naming the file.
        fs.writeFileSync(file, JSON.stringify(entries, null, 2));
        fs.writeFileSync(gemini, '{"hooks": {"BeforeTool": [oops');
        const broken = await runAgent('copilot', box, [shellTurn('copilot', 3), done]);
        assert.equal(ran(box, 3), false, 'a broken configuration allowed the command');
        assert.match(broken.exited.stdout + broken.exited.stderr, /Hookline could not decide \(.*settings\.json/);
      }),
  );
});
