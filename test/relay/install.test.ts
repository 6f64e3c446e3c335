// `hookline install` / `uninstall` into Claude Code's, Codex's, Copilot CLI's and Gemini CLI's own files, and the relay
// those entries run: as real processes, in a throwaway home.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { HOOKS, ROOT, runCli } from '../helpers.js';

const RELAY = path.join(ROOT, 'dist', 'bin', 'relay.cjs');
const SHELL_RELAY = path.join(ROOT, 'dist', 'bin', 'relay.sh');

function box() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-install-'));
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, HOOKLINE_SOCKET: path.join(base, 's.sock'), HOOKLINE_TRACE: '0' };
  return {
    base,
    home,
    project,
    env,
    claude: path.join(home, '.claude', 'settings.json'),
    gemini: path.join(home, '.gemini', 'settings.json'),
  };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * A POST to the server on `port` from a plain socket in a child (as user `uid`, from `from`):
 * exit 0 when it was answered 200, else 3 (dropped or refused).
 */
function rawPost(port: number, uid?: number, from: { localAddress?: string; localPort?: number } = {}): Promise<number | null> {
  const request = `POST /hookline/relay/claude HTTP/1.1\\r\\nHost: 127.0.0.1:${port}\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\nContent-Length: 2\\r\\n\\r\\n{}`;
  const script = `const c=require('net').connect(${JSON.stringify({ port, host: '127.0.0.1', ...from })},()=>c.end('${request}'));let got='';c.on('data',d=>got+=d);c.on('error',()=>{});c.on('close',()=>process.exit(got.startsWith('HTTP/1.1 200')?0:3))`;
  return new Promise((resolve) => {
    const c = spawn(process.execPath, ['-e', script], { stdio: 'ignore', ...(uid === undefined ? {} : { uid, gid: uid }) });
    c.on('exit', resolve);
  });
}

/** A POST as Claude Code's http entries make it (axios: JSON, no browser headers), with `headers` added. */
function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Input sent as it is, not as JSON. */
class Raw {
  constructor(readonly text: string) {}
}
const RAW = (text: string) => new Raw(text);

/** What the agent would do for one event: run the entry's command through a shell, the event on stdin. */
function runEntry(
  command: string,
  event: unknown,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // An entry that answers without reading the event (a configuration that does not read) may be
    // gone before the write: an agent takes its answer all the same, and so does this.
    child.stdin.on('error', () => {});
    child.stdin.end(event instanceof Raw ? event.text : JSON.stringify(event));
  });
}

const entryOf = (file: string, event: string): string => {
  const groups = JSON.parse(fs.readFileSync(file, 'utf8')).hooks[event] as Array<{ hooks: Array<{ command: string }> }>;
  return groups.at(-1)!.hooks.at(-1)!.command;
};

const promptEvent = (cwd: string) => ({ hook_event_name: 'UserPromptSubmit', session_id: 's1', transcript_path: '', cwd, prompt: 'hi' });

const preToolUse = (cwd: string, command: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: 's1',
  transcript_path: '',
  cwd,
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

/** Stops the servers the relay started for this box's socket. */
function stopServers(b: ReturnType<typeof box>): void {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(b.env.HOOKLINE_SOCKET!)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  fs.rmSync(b.base, { recursive: true, force: true });
}

describe('hookline install / uninstall', () => {
  test("Claude Code: the user's file keeps its hooks and comments, gains one entry per event, a second install is a no-op, uninstall gives the bytes back", async () => {
    const b = box();
    try {
      const own =
        '{\n  // my settings\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo mine" } ] }\n    ]\n  }\n}\n';
      write(b.claude, own);
      const r = await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Hookline installed in Claude Code: 18 entries/);
      const text = fs.readFileSync(b.claude, 'utf8');
      assert.ok(text.includes('// my settings'), 'the comment went');
      const { parse } = await import('jsonc-parser');
      const after = parse(text);
      assert.deepEqual(
        after.hooks.PreToolUse[0],
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] },
        "the user's own group moved or changed",
      );
      assert.equal(after.hooks.PreToolUse.length, 2);
      assert.equal(Object.keys(after.hooks).length, 18);
      // Events post to the warm server on one loopback port; the session's and each prompt's entry start it, and
      // the guards run the shell client, which checks that what answers on the port is this user's server.
      const posted = after.hooks.PostToolUse[0].hooks[0];
      const port = Number(new URL(posted.url).port);
      assert.deepEqual(posted, { type: 'http', url: `http://127.0.0.1:${port}/hookline/relay/claude`, timeout: 60 });
      assert.deepEqual(after.hooks.Stop[0].hooks[0], { type: 'http', url: posted.url, timeout: 60 });
      for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest']) {
        const h = after.hooks[event].at(-1).hooks[0];
        assert.equal(h.type, 'command');
        assert.ok(h.command.includes(`${SHELL_RELAY} ${process.execPath} claude --event ${event} --http-port ${port}`), h.command);
        assert.equal(h.command.endsWith(' --guard'), event !== 'SessionStart', h.command);
      }
      // Guard events fail closed in Claude Code itself; the others do not.
      assert.equal(after.hooks.PreToolUse[1].hooks[0].onFailure, 'block');
      assert.equal(after.hooks.UserPromptSubmit[0].hooks[0].onFailure, 'block');
      assert.equal(after.hooks.SessionStart[0].hooks[0].onFailure, undefined);
      assert.equal(after.hooks.PostToolUse[0].hooks[0].onFailure, undefined);
      assert.equal(after.hooks.PostToolUse[0].hooks[0].timeout, 60);
      assert.match(r.stdout, new RegExp(`posts its events to Hookline's server at 127\\.0\\.0\\.1:${port}`));
      const again = await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.match(again.stdout, /already installed/);
      assert.equal(fs.readFileSync(b.claude, 'utf8'), text);
      const listed = await runCli(['list'], { env: b.env, cwd: b.project });
      assert.match(
        listed.stdout,
        /Hookline is installed in Claude Code \(user, .*settings\.json\): 18 entries, each runs Hookline \(14 post to its server at 127\.0\.0\.1:\d+, which the others start\)/,
      );
      const u = await runCli(['uninstall', 'claude'], { env: b.env, cwd: b.project });
      assert.match(u.stdout, /back as it was before the install/);
      assert.equal(fs.readFileSync(b.claude, 'utf8'), own);
      assert.match((await runCli(['uninstall', 'claude'], { env: b.env, cwd: b.project })).stdout, /not installed/);
    } finally {
      stopServers(b);
    }
  });

  test("a file that did not exist is removed again; a file changed since loses only Hookline's entries", async () => {
    const b = box();
    try {
      await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.ok(fs.existsSync(b.claude));
      await runCli(['uninstall', 'claude'], { env: b.env, cwd: b.project });
      assert.equal(fs.existsSync(b.claude), false);

      write(b.gemini, '{"security": {"auth": {"selectedType": "gemini-api-key"}}}\n');
      await runCli(['install', 'gemini', '--hooks-from', 'claude', '--yes'], { env: b.env, cwd: b.project });
      // The agent rewrites its own file (as Gemini CLI does with old key names) and the user adds a hook.
      const v = JSON.parse(fs.readFileSync(b.gemini, 'utf8'));
      v.general = { enableAutoUpdate: false };
      v.hooks.BeforeTool.unshift({ hooks: [{ type: 'command', command: 'echo theirs' }] });
      write(b.gemini, JSON.stringify(v, null, 2));
      const u = await runCli(['uninstall', 'gemini'], { env: b.env, cwd: b.project });
      assert.match(u.stdout, /changed since the install, so only Hookline's 11 entries were removed/);
      const left = JSON.parse(fs.readFileSync(b.gemini, 'utf8'));
      assert.deepEqual(left.general, { enableAutoUpdate: false });
      assert.deepEqual(left.hooks, { BeforeTool: [{ hooks: [{ type: 'command', command: 'echo theirs' }] }] });
    } finally {
      stopServers(b);
    }
  });

  test('--dry-run prints the change and writes nothing; without --yes and no terminal it asks for --yes; a broken file is named and kept', async () => {
    const b = box();
    try {
      const dry = await runCli(['install', 'claude', '--dry-run'], { env: b.env, cwd: b.project });
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /\+\s+"PreToolUse": \[/);
      assert.match(dry.stdout, /dry run: .* not changed/);
      assert.equal(fs.existsSync(b.claude), false);
      const asked = await runCli(['install', 'claude'], { env: b.env, cwd: b.project });
      assert.notEqual(asked.code, 0);
      assert.match(asked.stderr, /add --yes to write this change/);
      write(b.claude, '{"hooks": {');
      const broken = await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.notEqual(broken.code, 0);
      assert.equal(broken.stderr.trim().split('\n').length, 1, broken.stderr);
      assert.match(broken.stderr, /settings\.json: .*nothing was changed/);
      assert.equal(fs.readFileSync(b.claude, 'utf8'), '{"hooks": {');
      const gem = await runCli(['install', 'gemini', '--yes'], { env: b.env, cwd: b.project });
      assert.notEqual(gem.code, 0);
      assert.match(gem.stderr, /Gemini CLI already runs your Hookline hooks itself .* --hooks-from claude/);
      const loop = await runCli(['install', 'claude', '--hooks-from', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.match(loop.stderr, /Claude Code already runs these hooks itself/);
    } finally {
      stopServers(b);
    }
  });

  test("Codex: entries appended after the user's own, their review records written where Codex keys them, the user's records still valid; uninstall gives both files back", async () => {
    const b = box();
    try {
      const codex = path.join(b.home, '.codex');
      const hooksFile = path.join(codex, 'hooks.json');
      const configFile = path.join(codex, 'config.toml');
      const own = JSON.stringify(
        { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] } },
        null,
        2,
      );
      write(hooksFile, own);
      write(configFile, 'model = "o4"\n');
      // The user reviews their own hook as Codex would.
      assert.equal((await runCli(['trust', b.project], { env: b.env, cwd: b.project })).code, 0);
      const reviewed = fs.readFileSync(configFile, 'utf8');
      const r = await runCli(['install', 'codex', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Hookline installed in Codex: 14 entries/);
      const config = fs.readFileSync(configFile, 'utf8');
      assert.ok(config.startsWith(reviewed.trimEnd().split('\n')[0]!), "the user's config.toml lost its start");
      assert.equal((config.match(/trusted_hash/g) ?? []).length, 15, config);
      assert.ok(config.includes(`${hooksFile}:pre_tool_use:0:0`), "the user's own record moved");
      assert.ok(config.includes(`${hooksFile}:pre_tool_use:1:0`), "no record for Hookline's PreToolUse entry");
      const check = await runCli(['trust', '--check', b.project], { env: b.env, cwd: b.project });
      assert.equal(check.code, 0, `hooks left to review after the install:\n${check.stdout}`);
      const u = await runCli(['uninstall', 'codex'], { env: b.env, cwd: b.project });
      assert.match(u.stdout, /back as it was/);
      assert.equal(fs.readFileSync(hooksFile, 'utf8'), own);
      assert.equal(fs.readFileSync(configFile, 'utf8'), reviewed);
    } finally {
      stopServers(b);
    }
  });

  test('a Claude Code hook the other agent cannot express is named at install time', async () => {
    const b = box();
    try {
      write(b.gemini, '{}');
      write(b.claude, JSON.stringify({ hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: 'echo x' }] }] } }));
      const r = await runCli(['install', 'gemini', '--hooks-from', 'claude', '--dry-run'], { env: b.env, cwd: b.project });
      assert.match(r.stdout, /! Gemini CLI cannot run: .*settings\.json: .*PermissionRequest/);
    } finally {
      stopServers(b);
    }
  });

  test("list and doctor show the user's hooks, not Hookline's own entries (said once as the install); a look-alike is listed", async () => {
    const b = box();
    try {
      write(b.gemini, JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'mine', command: 'echo {}' }] }] } }));
      assert.equal((await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project })).code, 0);
      const list = await runCli(['list'], { env: b.env, cwd: b.project });
      assert.doesNotMatch(list.stdout, /relay/, list.stdout);
      assert.match(list.stdout, /^BeforeTool +\* +mine /m);
      assert.match(list.stdout, /^Hookline is installed in Claude Code/m);
      const doctor = await runCli(['doctor'], { env: b.env, cwd: b.project });
      assert.doesNotMatch(doctor.stdout, /hookline\/relay|relay\.(cjs|sh)/, doctor.stdout);
      // Anything the install did not write is a hook like any other: another relay.cjs, this relay with
      // more after it, a URL under the relay's path; in the installed file or in a project's.
      const relay = /"command": "([^"]*relay\.sh[^"]*)"/.exec(fs.readFileSync(b.claude, 'utf8'))![1].replace(/\\"/g, '"');
      const lookalikes = [
        { type: 'command', command: 'node /tmp/elsewhere/relay.cjs claude' },
        { type: 'command', command: `${relay.replace(/ \|\| .*$/, '')}; touch /tmp/pwned` },
        { type: 'http', url: 'http://127.0.0.1:8080/hookline/relay/claude/exfil?token=abc' },
      ];
      const v = JSON.parse(fs.readFileSync(b.claude, 'utf8'));
      v.hooks.PreToolUse.push({ hooks: lookalikes });
      write(b.claude, JSON.stringify(v));
      write(path.join(b.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: lookalikes }] } }));
      const again = (await runCli(['list', '--json'], { env: b.env, cwd: b.project })).stdout;
      const shown = JSON.parse(again).hooks.map((h: { command: string | null; name: string }) => h.command ?? h.name);
      for (const l of lookalikes)
        assert.equal(
          shown.filter((c: string) => c === (l.type === 'http' ? `http: ${l.url}` : l.command)).length,
          2,
          `${JSON.stringify(l)}\n${again}`,
        );
    } finally {
      stopServers(b);
    }
  });

  test('uninstall leaves the home as it was: the folders the install made go with its files, a folder that was there stays', async () => {
    const b = box();
    try {
      fs.mkdirSync(path.join(b.home, '.copilot'));
      for (const agent of ['claude', 'codex', 'copilot'])
        assert.equal((await runCli(['install', agent, '--yes'], { env: b.env, cwd: b.project })).code, 0, agent);
      for (const agent of ['claude', 'codex', 'copilot'])
        assert.match((await runCli(['uninstall', agent], { env: b.env, cwd: b.project })).stdout, /back as it was/, agent);
      // Hookline's own folders (its records, the compile cache) are not the agents'.
      assert.deepEqual(
        fs
          .readdirSync(b.home)
          .filter((n) => n !== '.hookline' && n !== '.cache')
          .sort(),
        ['.copilot'],
      );
      assert.deepEqual(fs.readdirSync(path.join(b.home, '.copilot')), []);
      // Uninstalling what was never installed makes nothing either.
      await runCli(['uninstall', 'claude'], { env: b.env, cwd: b.project });
      await runCli(['uninstall', 'codex', '--scope', 'project'], { env: b.env, cwd: b.project });
      assert.equal(fs.existsSync(path.join(b.home, '.claude')), false);
      assert.equal(fs.existsSync(path.join(b.project, '.codex')), false);
    } finally {
      stopServers(b);
    }
  });

  test('the dry run shows the port the install then writes', async () => {
    const b = box();
    try {
      const port = (out: string) => /127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const first = await runCli(['install', 'claude', '--dry-run'], { env: b.env, cwd: b.project });
      const again = await runCli(['install', 'claude', '--dry-run'], { env: b.env, cwd: b.project });
      assert.ok(port(first.stdout), first.stdout);
      assert.equal(port(again.stdout), port(first.stdout));
      const done = await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(done.code, 0, done.stderr);
      assert.equal(port(fs.readFileSync(b.claude, 'utf8')), port(first.stdout));
    } finally {
      stopServers(b);
    }
  });

  test('only hooks on events the agent never fires are named: the relay runs the rest as their own system does (variables, names)', async () => {
    const b = box();
    try {
      const guard = { type: 'command', name: 'guard', command: 'bash "$GEMINI_PROJECT_DIR/guard.sh"' };
      write(
        b.gemini,
        JSON.stringify({ hooks: { BeforeTool: [{ hooks: [guard] }], BeforeModel: [{ hooks: [{ ...guard, name: 'model' }] }] } }),
      );
      const r = await runCli(['install', 'claude', '--dry-run'], { env: b.env, cwd: b.project });
      const lost = r.stdout.split('\n').filter((l) => l.startsWith('! '));
      assert.equal(lost.length, 1, r.stdout);
      assert.match(
        lost[0],
        /^! Claude Code cannot run: .*settings\.json: hooks\.BeforeModel\[0\]\.hooks\[0\]: Claude Code has no event for gemini's BeforeModel; it never runs there$/,
      );
    } finally {
      stopServers(b);
    }
  });
});

describe('the relay an entry runs', () => {
  test("a Hookline guard refuses in Claude Code's words, through a server the first event starts; a harmless command passes with nothing said", async () => {
    const b = box();
    try {
      write(
        b.gemini,
        JSON.stringify({
          hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: path.join(HOOKS, 'ht-guard.sh') }] }] },
        }),
      );
      await runCli(['install', 'claude', '--transport', 'socket', '--yes'], { env: b.env, cwd: b.project });
      const command = entryOf(b.claude, 'PreToolUse');
      const denied = await runEntry(command, preToolUse(b.project, 'rm -rf build'), b.env, b.project);
      assert.equal(denied.code, 0, denied.stderr);
      assert.deepEqual(JSON.parse(denied.stdout).hookSpecificOutput, {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm -rf here',
      });
      // The first event started the user's server; it listens owner-only.
      const st = fs.statSync(b.env.HOOKLINE_SOCKET!);
      assert.equal(st.mode & 0o077, 0);
      const ok = await runEntry(command, preToolUse(b.project, 'ls'), b.env, b.project);
      assert.equal(ok.code, 0);
      assert.equal(JSON.parse(ok.stdout).hookSpecificOutput.additionalContext, 'checked by ht-guard');
    } finally {
      stopServers(b);
    }
  });

  test("Claude Code's http entries: the prompt's entry starts the server on the installed port, events posted there are answered in Claude Code's words with the session's environment", async () => {
    const b = box();
    try {
      const mark = path.join(b.home, 'mark.sh');
      write(mark, '#!/bin/sh\ncat >/dev/null\nprintf \'{"systemMessage":"mark=%s"}\\n\' "$HK_MARK"\n');
      fs.chmodSync(mark, 0o755);
      write(
        b.gemini,
        JSON.stringify({
          hooks: {
            BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: path.join(HOOKS, 'ht-guard.sh') }] }],
            AfterTool: [{ hooks: [{ type: 'command', name: 'mark', command: mark }] }],
          },
        }),
      );
      assert.equal((await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project })).code, 0);
      const settings = JSON.parse(fs.readFileSync(b.claude, 'utf8'));
      const url = settings.hooks.PostToolUse.at(-1).hooks[0].url as string;
      // Below the ports the kernel gives connections: none of them takes it while the server is down.
      const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
      assert.ok(Number(new URL(url).port) < low, url);
      const post = async (event: unknown) => {
        const r = await postJson(url, JSON.stringify(event));
        return { status: r.status, json: JSON.parse(r.text) as Record<string, any> };
      };
      const postToolUse = { ...preToolUse(b.project, 'ls'), hook_event_name: 'PostToolUse', tool_response: { stdout: '' } };
      // Before any command entry ran, nothing listens.
      await assert.rejects(post(postToolUse));
      const prompt = promptEvent(b.project);
      // Claude Code starts every hook of a session with its own environment.
      const session = { ...b.env, HK_MARK: 'from-claude' };
      const started = await runEntry(entryOf(b.claude, 'UserPromptSubmit'), prompt, session, b.project);
      assert.equal(started.code, 0, started.stderr);
      assert.equal(started.stdout, '');
      // The guard through the shell client, in Claude Code's words.
      const denied = await runEntry(entryOf(b.claude, 'PreToolUse'), preToolUse(b.project, 'rm -rf build'), session, b.project);
      assert.equal(denied.code, 0, denied.stderr);
      assert.deepEqual(JSON.parse(denied.stdout).hookSpecificOutput, {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm -rf here',
      });
      const ok = await runEntry(entryOf(b.claude, 'PreToolUse'), preToolUse(b.project, 'ls'), session, b.project);
      assert.equal(JSON.parse(ok.stdout).hookSpecificOutput.additionalContext, 'checked by ht-guard');
      // An unreadable input of a guard is refused, not passed.
      const garbled = await runEntry(
        entryOf(b.claude, 'PreToolUse'),
        RAW('{"hook_event_name": "PreToolUse", "tool_input": {"comm'),
        session,
        b.project,
      );
      assert.equal(JSON.parse(garbled.stdout).hookSpecificOutput.permissionDecision, 'deny');
      // Posted over http (the same server), with the environment the session's command entry came with.
      const after = await post(postToolUse);
      assert.equal(after.status, 200);
      assert.equal(after.json.systemMessage, 'mark=from-claude');
      assert.equal((await post(preToolUse(b.project, 'rm -rf x'))).json.hookSpecificOutput.permissionDecision, 'deny');
      assert.equal((await postJson(url.replace('/claude', '/codex'), '{}')).status, 404);
      // Changed since the install: uninstall removes only Hookline's entries, the posting ones too.
      const changed = JSON.parse(fs.readFileSync(b.claude, 'utf8'));
      changed.model = 'sonnet';
      write(b.claude, JSON.stringify(changed, null, 2));
      assert.match(
        (await runCli(['uninstall', 'claude'], { env: b.env, cwd: b.project })).stdout,
        /only Hookline's 18 entries were removed/,
      );
      assert.deepEqual(JSON.parse(fs.readFileSync(b.claude, 'utf8')), { model: 'sonnet' });
      await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      // A second install keeps the port; --transport socket puts Node command entries back.
      const reinstalled = JSON.parse(fs.readFileSync(b.claude, 'utf8')).hooks.PostToolUse.at(-1).hooks[0].url;
      await runCli(['install', 'claude', '--hooks-from', 'codex', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(JSON.parse(fs.readFileSync(b.claude, 'utf8')).hooks.PostToolUse.at(-1).hooks[0].url, `${reinstalled}?from=codex`);
      await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.match((await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project })).stdout, /already installed/);
      await runCli(['install', 'claude', '--transport', 'socket', '--yes'], { env: b.env, cwd: b.project });
      assert.ok(entryOf(b.claude, 'PreToolUse').includes(RELAY));
      assert.ok(!entryOf(b.claude, 'UserPromptSubmit').includes('--http-port'));
    } finally {
      stopServers(b);
    }
  });

  test("a port held by the user's own program that does not answer: the prompt is refused with one line", async () => {
    const b = box();
    // It reads the whole event, then closes without an answer. (One that closes in the middle of the
    // event makes the shell client's write fail: nothing was run, and the Node client asks instead.)
    const squatter = net.createServer((c) => {
      let got = '';
      c.on('data', (d) => {
        got += d;
        const head = got.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(got)?.[1]);
        if (head >= 0 && Buffer.byteLength(got.slice(head + 4)) >= length) c.destroy();
      });
    });
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    const port = (squatter.address() as net.AddressInfo).port;
    try {
      assert.equal((await runCli(['install', 'claude', '--port', String(port), '--yes'], { env: b.env, cwd: b.project })).code, 0);
      const r = await runEntry(entryOf(b.claude, 'UserPromptSubmit'), promptEvent(b.project), b.env, b.project);
      // Exit 2 is Claude Code's refusal of a prompt; stderr is the reason it shows.
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        `hookline: Hookline could not decide (no answer from Hookline's server on 127.0.0.1:${port}); refused to be safe\n`,
      );
      const start = await runEntry(
        entryOf(b.claude, 'SessionStart'),
        { ...promptEvent(b.project), hook_event_name: 'SessionStart' },
        b.env,
        b.project,
      );
      assert.equal(start.code, 0);
      const bad = await runCli(['install', 'codex', '--transport', 'http', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /--transport http: give loopback or socket/);
    } finally {
      squatter.close();
      stopServers(b);
    }
  });

  test('a server that takes the event and never answers (stopped, wedged): the guard refuses within its time, saying why, and leaves no process; a guard whose Node is gone refuses too', async () => {
    const b = box();
    const silent = net.createServer((c) => c.resume());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      assert.equal((await runCli(['install', 'claude', '--port', String(port), '--yes'], { env: b.env, cwd: b.project })).code, 0);
      // The entry's time, made short: 3 s, and 2 more to answer.
      const env = { ...b.env, HOOKLINE_RELAY_BUDGET: '3' };
      const r = await runEntry(entryOf(b.claude, 'PreToolUse'), preToolUse(b.project, 'ls'), env, b.project);
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        `hookline: Hookline could not decide (no answer from Hookline's server on 127.0.0.1:${port} in 5 s); refused to be safe\n`,
      );
      // The watchdog's sleep went with it: no process of this box's is left.
      const left = () =>
        fs
          .readdirSync('/proc')
          .filter((d) => /^\d+$/.test(d))
          .filter((pid) => {
            try {
              return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${b.home}`);
            } catch {
              return false;
            }
          });
      assert.deepEqual(left(), []);
      // A server that does not even read: a large event's write stalls, and the guard is still refused in time.
      const deaf = net.createServer((c) => c.pause());
      await new Promise<void>((r) => deaf.listen(0, '127.0.0.1', r));
      const deafPort = (deaf.address() as net.AddressInfo).port;
      try {
        const big = { ...preToolUse(b.project, 'ls'), tool_input: { command: 'ls', content: 'x'.repeat(8 * 1024 * 1024) } };
        const stalled = await runEntry(entryOf(b.claude, 'PreToolUse').replaceAll(String(port), String(deafPort)), big, env, b.project);
        assert.equal(stalled.code, 2);
        assert.match(stalled.stderr, /no answer from Hookline's server on 127\.0\.0\.1:\d+ in 5 s\); refused to be safe\n$/);
      } finally {
        deaf.close();
      }
      // Nothing listens and Node is not where the entry says: the guard refuses (not Node's 127).
      await new Promise<void>((r) => silent.close(() => r()));
      const noNode = entryOf(b.claude, 'PreToolUse').replace(process.execPath, '/nonexistent/node');
      const gone = await runEntry(noNode, preToolUse(b.project, 'ls'), b.env, b.project);
      assert.equal(gone.code, 2);
      assert.match(gone.stderr, /^hookline: Hookline could not decide \(the Node client ended with status 127\); refused to be safe$/m);
      assert.deepEqual(left(), []);
    } finally {
      silent.close();
      stopServers(b);
    }
  });

  test("a port another user's program holds: nothing is sent to it, the prompt is refused naming the command that moves the entries", {
    skip: process.geteuid?.() !== 0 && 'needs root to listen as another user',
  }, async () => {
    const b = box();
    // Another user's listener: it records whatever it is sent.
    const squatter = spawn(
      process.execPath,
      [
        '-e',
        "require('net').createServer((c)=>c.on('data',(d)=>process.stderr.write(d))).listen(0,'127.0.0.1',function(){console.log(this.address().port)})",
      ],
      { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let received = '';
    squatter.stderr.on('data', (d: Buffer) => (received += d));
    const port = await new Promise<number>((r) => squatter.stdout.once('data', (d: Buffer) => r(Number(d.toString()))));
    try {
      await runCli(['install', 'claude', '--port', String(port), '--yes'], { env: b.env, cwd: b.project });
      const r = await runEntry(entryOf(b.claude, 'UserPromptSubmit'), promptEvent(b.project), b.env, b.project);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.decision, 'block');
      assert.match(
        json.reason,
        new RegExp(
          `127\\.0\\.0\\.1:${port}, where Hookline's http entries post, is taken by another program — run \`hookline install claude --port \\d+\``,
        ),
      );
      const start = await runEntry(
        entryOf(b.claude, 'SessionStart'),
        { ...promptEvent(b.project), hook_event_name: 'SessionStart' },
        b.env,
        b.project,
      );
      assert.match(JSON.parse(start.stdout).systemMessage, /is taken by another program/);
      // Nor does a guard's shell client send it anything.
      const pre = await runEntry(entryOf(b.claude, 'PreToolUse'), preToolUse(b.project, 'ls'), b.env, b.project);
      assert.equal(pre.code, 0, pre.stderr);
      assert.equal(received, '', 'an event was sent to the program of another user');
    } finally {
      squatter.kill('SIGKILL');
      stopServers(b);
    }
  });

  test("another user's process gets nothing from the server: its connection is dropped before anything is read", {
    skip: process.geteuid?.() !== 0 && 'needs root to connect as another user',
  }, async () => {
    const b = box();
    try {
      await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.equal((await runEntry(entryOf(b.claude, 'UserPromptSubmit'), promptEvent(b.project), b.env, b.project)).code, 0);
      const url = JSON.parse(fs.readFileSync(b.claude, 'utf8')).hooks.PostToolUse.at(-1).hooks[0].url as string;
      const ask = (uid?: number) => rawPost(Number(new URL(url).port), uid);
      assert.equal(await ask(), 0);
      assert.equal(await ask(65534), 3);
      // From another loopback address with the port of a connection of ours that is open: the kernel's row is
      // found by both ends, so it is not taken for ours.
      const port = Number(new URL(url).port);
      const ours = net.connect(port, '127.0.0.1');
      await new Promise<void>((r) => ours.once('connect', () => r()));
      ours.write('POST /hookline/relay/claude HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
      await new Promise<void>((r) => ours.once('data', () => r()));
      const borrowed = await rawPost(port, 65534, { localAddress: '127.0.0.2', localPort: ours.localPort });
      ours.destroy();
      assert.notEqual(borrowed, 0, 'a connection of another user that borrows our port number was served');
    } finally {
      stopServers(b);
    }
  });

  test('nothing a client sends takes the server down: a request it cannot read ends that connection only', async () => {
    const b = box();
    try {
      await runCli(['install', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.equal((await runEntry(entryOf(b.claude, 'UserPromptSubmit'), promptEvent(b.project), b.env, b.project)).code, 0);
      const url = new URL(JSON.parse(fs.readFileSync(b.claude, 'utf8')).hooks.PostToolUse.at(-1).hooks[0].url as string);
      for (const head of ['POST //[ HTTP/1.1', 'POST http://[::1 HTTP/1.1', 'GARBAGE\u0000 / HTTP/1.1', 'POST / HTTP/9.9']) {
        const c = net.connect(Number(url.port), '127.0.0.1');
        c.on('error', () => {});
        c.resume();
        c.end(`${head}\r\nHost: 127.0.0.1:${url.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
        await new Promise((r) => c.on('close', r));
      }
      const stop = JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', cwd: b.project });
      // A web page runs as the user too: what a browser sends, or sends for another name of this address, is refused.
      for (const headers of [
        { origin: 'https://page.example' },
        { 'sec-fetch-site': 'cross-site' },
        { host: `rebound.example:${url.port}` },
        { 'content-type': 'text/plain;charset=UTF-8' },
      ]) {
        const refused = await postJson(url.href, stop, headers);
        assert.deepEqual(
          [refused.status, JSON.parse(refused.text)],
          [403, { error: 'only the agents on this machine post here' }],
          JSON.stringify(headers),
        );
      }
      const r = await postJson(url.href, stop);
      assert.equal(r.status, 200);
    } finally {
      stopServers(b);
    }
  });

  test('a server that does not answer, a Hookline configuration that does not read: the guard event is refused with one line; other events pass', async () => {
    const b = box();
    // A socket that accepts and never answers.
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(b.env.HOOKLINE_SOCKET!, r));
    fs.chmodSync(b.env.HOOKLINE_SOCKET!, 0o600);
    try {
      write(b.gemini, '{"hooks": {"BeforeTool": [oops');
      const run = (event: unknown) =>
        new Promise<{ stdout: string; code: number | null }>((resolve) => {
          const c = spawn(process.execPath, [RELAY, 'claude', '--deadline', '1'], {
            cwd: b.project,
            env: b.env,
            stdio: ['pipe', 'pipe', 'pipe'],
          });
          let stdout = '';
          c.stdout.on('data', (d) => (stdout += d));
          c.on('close', (code) => resolve({ stdout, code }));
          c.stdin.end(JSON.stringify(event));
        });
      const hung = await run(preToolUse(b.project, 'ls'));
      assert.equal(hung.code, 0);
      const answer = JSON.parse(hung.stdout).hookSpecificOutput;
      assert.equal(answer.permissionDecision, 'deny');
      assert.match(answer.permissionDecisionReason, /^Hookline could not decide \(.+\); refused to be safe$/);
      silent.close();
      fs.rmSync(b.env.HOOKLINE_SOCKET!, { force: true });
      const inProcess = await runCli(['relay', 'claude'], {
        env: b.env,
        cwd: b.project,
        input: JSON.stringify(preToolUse(b.project, 'ls')),
      });
      const refused = JSON.parse(inProcess.stdout).hookSpecificOutput;
      assert.equal(refused.permissionDecision, 'deny');
      assert.match(refused.permissionDecisionReason, /Hookline could not decide \(.*settings\.json.*\)/);
      const stop = await runCli(['relay', 'claude'], {
        env: b.env,
        cwd: b.project,
        input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', transcript_path: '', cwd: b.project, stop_hook_active: false }),
      });
      const said = JSON.parse(stop.stdout);
      assert.equal(said.decision, undefined, 'a broken configuration stopped a Stop event');
      assert.match(said.systemMessage, /^Hookline: .*settings\.json: invalid JSON/);
      // Inside the relay's own hooks an entry answers nothing at once: no loop.
      const inner = await runCli(['relay', 'claude'], {
        env: { ...b.env, HOOKLINE_RELAYING: '1' },
        cwd: b.project,
        input: JSON.stringify(preToolUse(b.project, 'ls')),
      });
      assert.equal(inner.stdout, '');
    } finally {
      silent.close();
      stopServers(b);
    }
  });

  test("Gemini CLI with Claude Code hooks: a Claude guard refuses a shell command in Gemini's words; a project hook not reviewed is held back and said", async () => {
    const b = box();
    try {
      write(b.gemini, '{}');
      write(
        b.claude,
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: path.join(HOOKS, 'cc-bash-guard.mjs') }] }] },
        }),
      );
      write(
        path.join(b.project, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo project' }] }] } }),
      );
      await runCli(['install', 'gemini', '--hooks-from', 'claude', '--yes'], { env: b.env, cwd: b.project });
      const command = entryOf(b.gemini, 'BeforeTool');
      assert.ok(command.endsWith(' || exit 2'), command);
      const event = {
        hook_event_name: 'BeforeTool',
        session_id: 's1',
        transcript_path: '',
        cwd: b.project,
        timestamp: new Date().toISOString(),
        tool_name: 'run_shell_command',
        tool_input: { command: 'rm -rf /' },
      };
      const r = await runEntry(command, event, b.env, b.project);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.decision, 'deny');
      assert.match(out.reason, /Destructive command blocked: rm -rf \//);
      assert.match(out.systemMessage, /Hookline held back 1 hook\(s\) not trusted here .*hookline trust/);
    } finally {
      stopServers(b);
    }
  });
});

/** A Copilot CLI entry's command, for one camelCase event. */
const copilotEntry = (file: string, event: string): string => JSON.parse(fs.readFileSync(file, 'utf8')).hooks[event].at(-1).bash;

const copilotTool = (cwd: string, command: string) => ({
  sessionId: 's1',
  timestamp: 1,
  cwd,
  toolName: 'bash',
  toolArgs: { command, description: 'step' },
});

describe('hookline install copilot', () => {
  test("Hookline's own file in the user's Copilot hooks folder (COPILOT_HOME moves it), Copilot's flat entries naming their event; a second install is a no-op; uninstall removes only that file; --scope project writes .github/hooks", async () => {
    const b = box();
    try {
      const home = path.join(b.base, 'copilot-home');
      const env = { ...b.env, COPILOT_HOME: home };
      const mine = path.join(home, 'hooks', 'mine.json');
      write(mine, '{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "echo mine"}]}}\n');
      const r = await runCli(['install', 'copilot', '--yes'], { env, cwd: b.project });
      assert.equal(r.code, 0, r.stderr);
      const file = path.join(home, 'hooks', 'hookline.json');
      assert.match(r.stdout, /Hookline installed in Copilot CLI: 10 entries in .*copilot-home\/hooks\/hookline\.json/);
      const text = fs.readFileSync(file, 'utf8');
      const v = JSON.parse(text);
      assert.equal(v.version, 1);
      assert.deepEqual(Object.keys(v.hooks), [
        'sessionStart',
        'userPromptSubmitted',
        'preToolUse',
        'permissionRequest',
        'postToolUse',
        'postToolUseFailure',
        'notification',
        'agentStop',
        'sessionEnd',
        'preCompact',
      ]);
      // Over loopback: bash and the shell client, which falls back to this Node's relay.cjs; the guard flag on guard events.
      assert.equal(v.hooks.preToolUse.length, 1);
      assert.match(
        v.hooks.preToolUse[0].bash,
        new RegExp(`^/(usr/)?bin/bash ${SHELL_RELAY} ${process.execPath} copilot --event preToolUse --http-port \\d+ --guard$`),
      );
      assert.equal(v.hooks.preToolUse[0].timeoutSec, 60);
      assert.match(v.hooks.postToolUse[0].bash, /--event postToolUse --http-port \d+$/);
      // Copilot CLI lets a prompt through when its hook fails: the entry prints the refusal itself.
      assert.match(
        v.hooks.userPromptSubmitted[0].bash,
        /--event userPromptSubmitted --http-port \d+ --guard \|\| printf '%s\\n' '\{"decision":"block","reason":"Hookline could not start; refused to be safe"\}'$/,
      );
      assert.match((await runCli(['install', 'copilot', '--yes'], { env, cwd: b.project })).stdout, /already installed/);
      assert.equal(fs.readFileSync(file, 'utf8'), text);
      const listed = await runCli(['list'], { env, cwd: b.project });
      assert.match(listed.stdout, /Hookline is installed in Copilot CLI \(user, .*hookline\.json\): 10 entries, each runs Hookline/);
      const u = await runCli(['uninstall', 'copilot'], { env, cwd: b.project });
      assert.match(u.stdout, /back as it was before the install/);
      assert.equal(fs.existsSync(file), false);
      assert.deepEqual(fs.readdirSync(path.join(home, 'hooks')), ['mine.json']);
      const p = await runCli(['install', 'copilot', '--scope', 'project', '--yes'], { env, cwd: b.project });
      assert.equal(p.code, 0, p.stderr);
      assert.ok(fs.existsSync(path.join(b.project, '.github', 'hooks', 'hookline.json')));
      assert.match(p.stdout, /note: Copilot CLI runs a repository's hooks only in a folder it trusts/);
      await runCli(['uninstall', 'copilot', '--scope', 'project'], { env, cwd: b.project });
      assert.equal(fs.existsSync(path.join(b.project, '.github', 'hooks', 'hookline.json')), false);
    } finally {
      stopServers(b);
    }
  });

  test('a NUL in what a hook says (a tool argument it quotes) does not cut the answer short: the deny stands', async () => {
    const b = box();
    try {
      // The deny quotes the command, which the model chose.
      const quoting = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s).tool_input.command;console.log(JSON.stringify({decision:"deny",reason:"blocked: "+c,systemMessage:"blocked: "+c}))})'`;
      write(b.gemini, JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'quote', command: quoting }] }] } }));
      await runCli(['install', 'copilot', '--yes'], { env: b.env, cwd: b.project });
      const pre = copilotEntry(path.join(b.home, '.copilot', 'hooks', 'hookline.json'), 'preToolUse');
      for (let i = 0; i < 2; i++) {
        const r = await runEntry(pre, copilotTool(b.project, 'rm -rf work #\u0000 tail'), b.env, b.project);
        assert.equal(JSON.parse(r.stdout).permissionDecision, 'deny', `${r.stdout} ${r.stderr}`);
      }
    } finally {
      stopServers(b);
    }
  });

  test("the entries answer in Copilot CLI's words: a deny, a rewrite in Copilot's arguments, a refused prompt when a configuration does not read, a notice Copilot shows (exit 2)", async () => {
    const b = box();
    try {
      const rewrite = `printf '%s' '{"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "ls -la"}}}'`;
      write(
        b.gemini,
        JSON.stringify({
          hooks: {
            BeforeTool: [
              { hooks: [{ type: 'command', name: 'guard', command: path.join(HOOKS, 'ht-guard.sh') }] },
              {
                matcher: 'run_shell_command',
                hooks: [{ type: 'command', name: 'rewrite', command: `case "$(cat)" in *'"ls"'*) ${rewrite};; esac` }],
              },
            ],
          },
        }),
      );
      await runCli(['install', 'copilot', '--yes'], { env: b.env, cwd: b.project });
      const file = path.join(b.home, '.copilot', 'hooks', 'hookline.json');
      const pre = copilotEntry(file, 'preToolUse');
      const denied = await runEntry(pre, copilotTool(b.project, 'rm -rf build'), b.env, b.project);
      assert.equal(denied.code, 0, denied.stderr);
      assert.deepEqual(JSON.parse(denied.stdout), { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' });
      // Tool arguments as JSON text (as Copilot CLI's documents show them) are read; any other text is refused.
      const asText = { ...copilotTool(b.project, 'rm -rf build'), toolArgs: JSON.stringify({ command: 'rm -rf build' }) };
      assert.equal(JSON.parse((await runEntry(pre, asText, b.env, b.project)).stdout).permissionDecision, 'deny');
      const unreadable = await runEntry(pre, { ...copilotTool(b.project, 'x'), toolArgs: 'rm -rf build' }, b.env, b.project);
      assert.deepEqual(JSON.parse(unreadable.stdout), {
        permissionDecision: 'deny',
        permissionDecisionReason:
          "Hookline could not decide (the event's toolArgs are neither an object nor the JSON text of one); refused to be safe",
      });
      const rewritten = await runEntry(pre, copilotTool(b.project, 'ls'), b.env, b.project);
      assert.deepEqual(JSON.parse(rewritten.stdout), {
        modifiedArgs: { command: 'ls -la', description: 'step' },
        additionalContext: 'checked by ht-guard',
      });
      // A Hookline configuration that does not read: the prompt is refused, a session start tells the user (exit 2's stderr).
      write(b.gemini, '{"hooks": {"BeforeTool": [oops');
      const prompt = await runEntry(
        copilotEntry(file, 'userPromptSubmitted'),
        { sessionId: 's1', timestamp: 1, cwd: b.project, prompt: 'go' },
        b.env,
        b.project,
      );
      assert.equal(prompt.code, 0);
      const block = JSON.parse(prompt.stdout);
      assert.equal(block.decision, 'block');
      assert.match(block.reason, /^Hookline could not decide \(.*settings\.json.*\); refused to be safe$/);
      const start = await runEntry(
        copilotEntry(file, 'sessionStart'),
        { sessionId: 's1', timestamp: 1, cwd: b.project, source: 'new', initialPrompt: 'go' },
        b.env,
        b.project,
      );
      assert.equal(start.code, 2);
      assert.equal(start.stdout, '');
      assert.match(start.stderr, /^hookline: Hookline: .*settings\.json: invalid JSON/m);
      // The relay itself gone: a tool call exits non-zero (Copilot CLI refuses it), a prompt gets the entry's refusal.
      const gone = (c: string) => c.replace(/relay\.(cjs|sh)/g, 'relay-gone.$1');
      assert.notEqual((await runEntry(gone(pre), copilotTool(b.project, 'ls'), b.env, b.project)).code, 0);
      const noRelay = await runEntry(gone(copilotEntry(file, 'userPromptSubmitted')), { prompt: 'go' }, b.env, b.project);
      assert.deepEqual(JSON.parse(noRelay.stdout), { decision: 'block', reason: 'Hookline could not start; refused to be safe' });
    } finally {
      stopServers(b);
    }
  });

  test("--hooks-from claude runs the user's Claude Code hooks in Copilot CLI and leaves the project's, which Copilot CLI runs itself", async () => {
    const b = box();
    try {
      const guard = (word: string) =>
        `case "$(cat)" in *${word}*) printf '%s' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no ${word}"}}';; esac`;
      write(
        b.claude,
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard('user-word') }] }],
            PermissionRequest: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: `printf '%s' '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no programs"}}}'`,
                  },
                ],
              },
            ],
            SubagentStop: [{ hooks: [{ type: 'command', command: 'true' }] }],
          },
        }),
      );
      write(
        path.join(b.project, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard('project-word') }] }] } }),
      );
      assert.equal((await runCli(['trust', b.project], { env: b.env, cwd: b.project })).code, 0);
      const r = await runCli(['install', 'copilot', '--hooks-from', 'claude', '--yes'], { env: b.env, cwd: b.project });
      assert.equal(r.code, 0, r.stderr);
      // What Copilot CLI has no event for is named before writing; a permission hook it has.
      assert.match(
        r.stdout,
        /! Copilot CLI cannot run: .*settings\.json: hooks\.SubagentStop\[0\]\.hooks\[0\]: Copilot CLI has no event for claude's SubagentStop/,
      );
      assert.doesNotMatch(r.stdout, /PermissionRequest|project-word/);
      const pre = copilotEntry(path.join(b.home, '.copilot', 'hooks', 'hookline.json'), 'preToolUse');
      assert.match(pre, /--event preToolUse --hooks-from claude --http-port \d+ --guard$/);
      const user = await runEntry(pre, copilotTool(b.project, 'echo user-word'), b.env, b.project);
      assert.deepEqual(JSON.parse(user.stdout), { permissionDecision: 'deny', permissionDecisionReason: 'no user-word' });
      const project = await runEntry(pre, copilotTool(b.project, 'echo project-word'), b.env, b.project);
      assert.equal(project.stdout, '', 'the project hook Copilot CLI runs itself ran a second time');
      // Copilot's permission check as Claude Code's PermissionRequest, answered in Copilot's words.
      const perm = await runEntry(
        copilotEntry(path.join(b.home, '.copilot', 'hooks', 'hookline.json'), 'permissionRequest'),
        {
          hookName: 'permissionRequest',
          sessionId: 's1',
          timestamp: 1,
          cwd: b.project,
          toolName: 'bash',
          toolInput: { command: 'ls' },
          permissionSuggestions: [],
        },
        b.env,
        b.project,
      );
      assert.deepEqual(JSON.parse(perm.stdout), { behavior: 'deny', message: 'no programs' });
    } finally {
      stopServers(b);
    }
  });
});
