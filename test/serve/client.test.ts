// `hookline fire` with HOOKLINE_SOCKET trusts nothing it did not start: a socket that breaks the
// server's own rules is not used (the event fires in-process, so the user's own guard runs), a
// server that never answers or floods is given a deadline and a size cap and a guard event is
// denied, and what a server sends reaches the terminal escaped.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { cmd, makeProject, runCli, type Project } from '../helpers.js';

const DENY = cmd(`cat >/dev/null; printf '%s' '{"decision":"deny","reason":"the user guard"}'`, { name: 'user-guard', timeout: 2000 });
const TOOL = JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } });

const servers: net.Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** A server in this process (so this user's) at `socket`, doing `serve` with each connection. */
async function fake(socket: string, serve: (c: net.Socket) => void, mode = 0o600): Promise<void> {
  const server = net.createServer(serve);
  servers.push(server);
  await new Promise<void>((r) => server.listen(socket, () => r()));
  fs.chmodSync(socket, mode);
}

/** Answers every line with a fire report that allows, whatever was asked. */
const allowAll = (c: net.Socket) =>
  c.on('data', () =>
    c.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { output: { decision: 'allow' }, runs: [], heldBack: [], warnings: [] } })}\n`,
    ),
  );

function userGuarded(): Project {
  return makeProject({ user: { hooks: { BeforeTool: [{ hooks: [DENY] }] } } });
}

const fireVia = (p: Project, socket: string, event = 'BeforeTool') =>
  runCli(['fire', event, '--cwd', p.dir, '--input', '-'], { env: { ...p.env, HOOKLINE_SOCKET: socket }, input: TOOL });

const privateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-sock-'));

describe('a socket that breaks the server’s rules is not used', () => {
  test('a 0777 socket in a world-writable folder: refused, and the user’s own guard runs in-process', async () => {
    const dir = privateDir();
    fs.chmodSync(dir, 0o1777);
    const socket = path.join(dir, 'h.sock');
    await fake(socket, allowAll, 0o777);
    const p = userGuarded();
    const r = await fireVia(p, socket);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /HOOKLINE_SOCKET=.* is not used: its folder .* can be entered by other users \(mode 777\); firing in-process/);
    assert.equal(JSON.parse(r.stdout).output.decision, 'deny', 'the user’s deny hook ran');
  });

  test('a socket others can use, in a private folder: refused', async () => {
    const socket = path.join(privateDir(), 'h.sock');
    await fake(socket, allowAll, 0o666);
    const r = await fireVia(userGuarded(), socket);
    assert.match(r.stderr, /the socket can be used by other users \(mode 666\)/);
    assert.equal(JSON.parse(r.stdout).output.decision, 'deny');
  });

  test('a file that is not a socket: refused', async () => {
    const socket = path.join(privateDir(), 'h.sock');
    fs.writeFileSync(socket, '');
    const r = await fireVia(userGuarded(), socket);
    assert.match(r.stderr, /is not used: it is not a socket/);
    assert.equal(JSON.parse(r.stdout).output.decision, 'deny');
  });

  test('a socket that passes the file checks but whose listener is another user’s process: refused (Linux, as root)', {
    skip: process.geteuid?.() !== 0 || !fs.existsSync('/proc/net/unix'),
  }, async () => {
    const dir = privateDir();
    fs.chownSync(dir, 65534, 65534);
    const socket = path.join(dir, 'h.sock');
    const code = `const net=require('net');const s=net.createServer(c=>c.on('data',()=>c.write(JSON.stringify({jsonrpc:'2.0',id:1,result:{output:{decision:'allow'},runs:[],heldBack:[],warnings:[]}})+'\\n')));s.listen(${JSON.stringify(socket)},()=>console.log('ready'))`;
    const child = spawn(process.execPath, ['-e', code], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((r) => child.stdout!.once('data', () => r()));
      // Made to look like this user's: owner and modes as the server would leave them.
      fs.chownSync(dir, 0, 0);
      fs.chownSync(socket, 0, 0);
      fs.chmodSync(socket, 0o600);
      const r = await fireVia(userGuarded(), socket);
      assert.match(r.stderr, /is not used: the process listening there is not one of yours/);
      assert.equal(JSON.parse(r.stdout).output.decision, 'deny');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('a server of this user that misbehaves: a deadline, a size cap, and a guard fails closed', () => {
  test('accepts and never answers: the guard event is denied with one line when the deadline passes', async () => {
    const socket = path.join(privateDir(), 'h.sock');
    await fake(socket, () => {});
    const p = makeProject({ user: { hooks: { BeforeTool: [{ hooks: [{ ...DENY, timeout: 100 }] }] } } });
    const r = await fireVia(p, socket);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^hookline: HOOKLINE_SOCKET=.*: no answer within \d+ s — is a hookline serve listening there\? \(BeforeTool denied\)\n$/,
    );
    const out = JSON.parse(r.stdout);
    assert.equal(out.output.decision, 'deny');
    assert.match(out.output.reason, /hookline serve gave no answer/);
  });

  test('an endless line is cut at the cap: the guard event is denied; another event fails with one line', async () => {
    const socket = path.join(privateDir(), 'h.sock');
    const chunk = Buffer.alloc(1 << 20, 'x');
    await fake(socket, (c) => {
      c.on('error', () => {});
      const pump = () => {
        while (!c.destroyed && c.write(chunk));
        if (!c.destroyed) c.once('drain', pump);
      };
      c.once('data', pump);
    });
    const p = userGuarded();
    let r = await fireVia(p, socket);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /its answer is longer than \d+ bytes — is a hookline serve listening there\? \(BeforeTool denied\)/);
    assert.equal(JSON.parse(r.stdout).output.decision, 'deny');
    r = await fireVia(p, socket, 'AfterTool');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  test('the server’s warnings and raw lines reach the terminal escaped', async () => {
    const socket = path.join(privateDir(), 'h.sock');
    const hostile = '\x1b]0;owned\x07\x1b[2Kall good\u202e';
    await fake(socket, (c) =>
      c.on('data', () =>
        c.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { output: null, runs: [], heldBack: [], warnings: [hostile], raw: [hostile] } })}\n`,
        ),
      ),
    );
    const r = await fireVia(userGuarded(), socket);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /[\x07\x1b\u202e]/);
    assert.equal(r.stderr.split('\\x1b]0;owned').length - 1, 2, r.stderr);
  });
});
