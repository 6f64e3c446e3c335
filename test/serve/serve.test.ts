// `hookline serve` as a real process: fire through the socket equals `hookline fire`, clients do
// not wait for each other, a client that goes away cancels its hooks, bad requests get JSON-RPC
// errors and the server keeps serving, owner-only socket, HTTP needs the token, clean shutdown.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, ROOT, alive, cmd, hook, makeProject, runCli, trustDialectHooks, type Project } from '../helpers.js';

interface Server {
  child: ChildProcess;
  socket: string;
  http?: string;
  exited: Promise<number | null>;
  stderr: () => string;
}

const servers: Server[] = [];
after(() => {
  for (const s of servers) s.child.kill('SIGKILL');
});

/** Starts `hookline serve` and waits for its ready line. */
function startServer(p: Project, args: string[] = []): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(path.dirname(p.dir), 'sock-'));
  const socket = path.join(dir, 'hookline.sock');
  const child = spawn(process.execPath, [CLI, 'serve', '--socket', socket, ...args], { env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      const ready = JSON.parse(line) as { socket: string; http?: string };
      const s = { child, socket: ready.socket, http: ready.http, exited, stderr: () => err };
      servers.push(s);
      resolve(s);
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** A client connection: send lines, await answers by id (or the next answer). */
class Client {
  readonly conn: net.Socket;
  private answers: any[] = [];
  private waiting: Array<() => void> = [];
  readonly ready: Promise<void>;
  constructor(socket: string) {
    this.conn = net.connect(socket);
    this.ready = new Promise((r) => this.conn.once('connect', () => r()));
    readline.createInterface({ input: this.conn }).on('line', (l) => {
      this.answers.push(JSON.parse(l));
      for (const w of this.waiting.splice(0)) w();
    });
  }
  send(line: string | object): void {
    this.conn.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  }
  async answer(match: (a: any) => boolean = () => true): Promise<any> {
    for (;;) {
      const i = this.answers.findIndex(match);
      if (i !== -1) return this.answers.splice(i, 1)[0];
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }
  async call(method: string, params: object, id: number | string = 1): Promise<any> {
    await this.ready;
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.answer((a) => a.id === id);
  }
  close(): void {
    this.conn.destroy();
  }
}

/** Polls until `done()` (a hook's marker, a process gone): waits for the event, bounded only against a hang. */
async function until(done: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const appears = (file: string) => until(() => fs.existsSync(file), file);
const gone = (pid: number) => until(() => !alive(pid), `process ${pid} to end`);

/** A run report without its timings (they differ run to run). */
const untimed = (report: any) => ({ ...report, runs: report.runs.map(({ durationMs: _d, ...r }: any) => r) });

const ALLOW = `${hook('cfg-mark.sh')}`;

function project(hooks: Record<string, unknown[]>): Project & { marker: string } {
  const p = makeProject({ user: { hooks } });
  return { ...p, marker: path.join(path.dirname(p.dir), 'marks.txt') };
}

describe('hookline serve', () => {
  test('fire through the socket prints what hookline fire prints; HOOKLINE_SOCKET uses it; settings changes are picked up', async () => {
    const base = project({});
    const p = project({ BeforeTool: [{ matcher: 'run_shell_command', hooks: [cmd(`${ALLOW} '${base.marker}' first`)] }] });
    const input = { tool_name: 'run_shell_command', tool_input: { command: 'ls' } };
    const local = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--session-id', 's1', '--input', '-'], {
      env: p.env,
      input: JSON.stringify(input),
    });
    assert.equal(local.code, 0, local.stderr);
    const server = await startServer(p);
    const c = new Client(server.socket);
    const r = await c.call('fire', { event: 'BeforeTool', input, cwd: p.dir, sessionId: 's1' });
    const { warnings, ...report } = r.result;
    assert.deepEqual(warnings, []);
    assert.deepEqual(untimed(report), untimed(local.json()));
    assert.equal(report.output.systemMessage, 'ran first');

    const via = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--session-id', 's1', '--input', '-'], {
      env: { ...p.env, HOOKLINE_SOCKET: server.socket },
      input: JSON.stringify(input),
    });
    assert.equal(via.code, 0, via.stderr);
    assert.equal(via.stderr, '');
    assert.deepEqual(untimed(via.json()), untimed(local.json()));

    // The warm engine reads settings again when they change.
    const settings = path.join(p.home, '.gemini', 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({ hooks: { BeforeTool: [{ hooks: [cmd(`${ALLOW} '${base.marker}' second`)] }] } }));
    const again = await c.call('fire', { event: 'BeforeTool', input, cwd: p.dir }, 2);
    assert.equal(again.result.output.systemMessage, 'ran second');
    // Two engines: one for the calls made with the server's environment, one for `hookline fire`'s own.
    assert.deepEqual((await c.call('reload', {}, 3)).result, { reloaded: 2 });
    assert.equal((await c.call('fire', { event: 'BeforeTool', input, cwd: p.dir }, 4)).result.output.systemMessage, 'ran second');
    c.close();

    const down = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
      env: { ...p.env, HOOKLINE_SOCKET: path.join(p.dir, 'none.sock') },
      input: JSON.stringify(input),
    });
    assert.equal(down.code, 0);
    assert.match(down.stderr, /^hookline: HOOKLINE_SOCKET=.*none\.sock is not reachable \(ENOENT\); firing in-process\n$/);
    assert.equal(down.json().output.systemMessage, 'ran second');
  });

  test("hookline fire through a server runs the hooks with the caller's environment, as in-process", async () => {
    const p = project({ BeforeTool: [{ hooks: [cmd(`cat >/dev/null; echo "{\\"systemMessage\\": \\"hi $GREETING\\"}"`)] }] });
    const server = await startServer(p);
    const fire = (greeting: string) =>
      runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
        env: { ...p.env, HOOKLINE_SOCKET: server.socket, GREETING: greeting },
        input: JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } }),
      });
    const first = await fire('there');
    assert.equal(first.stderr, '');
    assert.equal(first.json().output.systemMessage, 'hi there');
    assert.equal((await fire('again')).json().output.systemMessage, 'hi again', "not the first caller's");
  });

  test('other dialects: Claude Code hooks fire the same through the socket; an mm configuration error is refused with its lines', async () => {
    const p0p = makeProject({});
    const p = { ...p0p, env: { ...p0p.env, HOME: p0p.home } };
    fs.mkdirSync(path.join(p.dir, '.claude'));
    const claudeHook = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"from claude"}}'`;
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: claudeHook }] }] } }),
    );
    trustDialectHooks(p.dir, p.home);
    const input = { prompt: 'hi', session_id: 's2' };
    const local = await runCli(['fire', 'UserPromptSubmit', '--dialect', 'claude', '--cwd', p.dir, '--input', '-'], {
      env: p.env,
      input: JSON.stringify(input),
    });
    assert.equal(local.code, 0, local.stderr);
    const server = await startServer(p);
    const c = new Client(server.socket);
    const r = await c.call('fire', { event: 'UserPromptSubmit', dialect: 'claude', input, cwd: p.dir });
    const { warnings: _w, ...report } = r.result;
    assert.deepEqual(untimed(report), untimed(local.json()));
    assert.equal(report.runs.length, 1);

    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), 'hooks:\n  preGeneration:\n    - command: ""\n');
    const mm = await c.call('fire', { event: 'preGeneration', dialect: 'mm', input: { prompt: 'hi' }, cwd: p.dir }, 2);
    assert.equal(mm.error.code, -32000);
    assert.equal(mm.error.data.exitCode, 1);
    assert.match(mm.error.data.raw[0], /^\[config error: .*agent\.yaml: hooks\.preGeneration\[0\]: command must not be empty\]$/);
    const via = await runCli(['fire', 'preGeneration', '--dialect', 'mm', '--cwd', p.dir, '--input', '-'], {
      env: { ...p.env, HOOKLINE_SOCKET: server.socket },
      input: '{"prompt": "hi"}',
    });
    assert.equal(via.code, 1);
    assert.equal(via.stdout, '');
    assert.equal(via.stderr, `${mm.error.data.raw[0]}\n`);
    c.close();
  });

  test('the Python client of docs/serve.md fires a real hook', async () => {
    const p = project({ BeforeTool: [{ hooks: [cmd(`${ALLOW} '${path.join(path.dirname(p0()), 'm')}' py`)] }] });
    const server = await startServer(p);
    const out = await new Promise<string>((resolve, reject) => {
      const py = spawn(
        'python3',
        [path.join(ROOT, 'examples', 'serve', 'client.py'), server.socket, 'BeforeTool', '{"tool_name": "x", "tool_input": {}}'],
        { cwd: p.dir },
      );
      let s = '';
      py.stdout.on('data', (d) => (s += d));
      py.on('error', reject);
      py.on('exit', (code) => (code === 0 ? resolve(s) : reject(new Error(`python3 exited ${code}`))));
    });
    const answer = JSON.parse(out);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.output.systemMessage, 'ran py');
    assert.equal(answer.result.runs.length, 1);
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'serve.md'), 'utf8');
    const client = fs.readFileSync(path.join(ROOT, 'examples', 'serve', 'client.py'), 'utf8');
    const fn = client.slice(client.indexOf('def fire'), client.indexOf('\n\nif __name__'));
    assert.ok(doc.includes(fn), 'docs/serve.md shows the tested client');
  });

  test('a slow hook for one client does not hold up another', async () => {
    const p = project({});
    const dir = path.dirname(p.dir);
    const started = path.join(dir, 'started');
    const release = path.join(dir, 'release');
    fs.writeFileSync(
      path.join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: {
          BeforeTool: [
            { matcher: 'slow', hooks: [cmd(`${hook('serve-wait.sh')} '${started}' '${release}'`)] },
            { matcher: 'fast', hooks: [cmd(`${ALLOW} '${path.join(dir, 'm')}' fast`)] },
          ],
        },
      }),
    );
    const server = await startServer(p);
    const slow = new Client(server.socket);
    const fast = new Client(server.socket);
    const order: string[] = [];
    const slowDone = slow.call('fire', { event: 'BeforeTool', input: { tool_name: 'slow' }, cwd: p.dir }).then((a) => {
      order.push('slow');
      return a;
    });
    await appears(started);
    const f = await fast.call('fire', { event: 'BeforeTool', input: { tool_name: 'fast' }, cwd: p.dir });
    order.push('fast');
    assert.equal(f.result.output.systemMessage, 'ran fast');
    fs.writeFileSync(release, '');
    const s = await slowDone;
    assert.equal(s.result.output.systemMessage, 'slow done');
    assert.deepEqual(order, ['fast', 'slow']);
    slow.close();
    fast.close();
  });

  test('a client that disconnects cancels its hook; the server keeps serving', async () => {
    const p = project({});
    const pidFile = path.join(path.dirname(p.dir), 'pid');
    fs.writeFileSync(
      path.join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: { BeforeTool: [{ matcher: 'hang', hooks: [cmd(`${hook('serve-hang.sh')} '${pidFile}'`, { timeout: 600000 })] }] },
      }),
    );
    const server = await startServer(p);
    const c = new Client(server.socket);
    await c.ready;
    c.send({ jsonrpc: '2.0', id: 1, method: 'fire', params: { event: 'BeforeTool', input: { tool_name: 'hang' }, cwd: p.dir } });
    await appears(pidFile);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.ok(alive(pid));
    c.close();
    await gone(pid);
    assert.equal(alive(pid), false);
    const d = new Client(server.socket);
    const r = await d.call('list', { cwd: p.dir });
    assert.equal(r.result.hooks.length, 1);
    d.close();
  });

  test('bad requests get JSON-RPC errors and the server keeps serving', async () => {
    const p = project({});
    const server = await startServer(p);
    const c = new Client(server.socket);
    await c.ready;
    c.send('{not json');
    assert.equal((await c.answer()).error.code, -32700);
    c.send('[1]');
    const batch = await c.answer();
    assert.equal(batch[0].error.code, -32600);
    c.send({ id: 7, method: 'fire' });
    assert.deepEqual([(await c.answer()).error.code, 7], [-32600, 7]);
    assert.equal((await c.call('nope', {}, 2)).error.code, -32601);
    const missing = await c.call('fire', { event: 'BeforeTool' }, 3);
    assert.equal(missing.error.code, -32602);
    assert.match(missing.error.message, /"cwd"/);
    const badInput = await c.call('fire', { event: 'BeforeTool', cwd: p.dir, input: 5 }, 4);
    assert.equal(badInput.error.code, -32602);
    assert.match(badInput.error.message, /"input"/);
    const badEvent = await c.call('fire', { event: 'BeforeTol', cwd: p.dir }, 5);
    assert.match(badEvent.error.message, /did you mean "BeforeTool"/);
    c.send(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    const deep = await c.answer();
    assert.equal(deep.error.code, -32600);
    assert.match(deep.error.message, /nested deeper/);
    c.send(`{"x":"${'a'.repeat(11 * 1024 * 1024)}"}`);
    const long = await c.answer();
    assert.equal(long.error.code, -32600);
    assert.match(long.error.message, /longer than 10485760 bytes/);
    const ok = await c.call('validate', { cwd: p.dir }, 6);
    assert.equal(ok.result.errors, 0);
    // Params by position are valid JSON-RPC, not what these methods take; null stands for "not given".
    // A notification with params by position gets no answer: the next answer is request 8's.
    c.send({ jsonrpc: '2.0', method: 'list', params: [1] });
    c.send({ jsonrpc: '2.0', id: 8, method: 'fire', params: [1] });
    assert.deepEqual([(await c.answer()).error.code, 8], [-32602, 8]);
    const nulls = await c.call('fire', { event: 'BeforeTool', cwd: p.dir, input: { tool_name: 'x' }, sessionId: null, dialect: null }, 9);
    assert.ok(nulls.result, JSON.stringify(nulls.error));
    // validate with no dialect checks every hook system found there, as `hookline validate` does.
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(p.dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } }));
    const all = await c.call('validate', { cwd: p.dir }, 10);
    assert.equal(all.result.errors, 1);
    assert.deepEqual(Object.keys(all.result.report.dialects).sort(), ['claude', 'gemini']);
    c.close();
  });

  test('the socket is owner-only; a folder others can enter is refused', async () => {
    const p = project({});
    const server = await startServer(p);
    assert.equal(fs.statSync(server.socket).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(server.socket)).mode & 0o077, 0);
    const open = fs.mkdtempSync(path.join(path.dirname(p.dir), 'open-'));
    fs.chmodSync(open, 0o755);
    const r = await runCli(['serve', '--socket', path.join(open, 's.sock')], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hookline: the socket's folder .* can be entered by other users \(mode 755\)/);
  });

  test('HTTP: loopback only, the bearer token is required', async () => {
    const p = project({ BeforeTool: [{ hooks: [cmd(`${ALLOW} '${path.join(path.dirname(p0()), 'm')}' web`)] }] });
    const tokenFile = path.join(path.dirname(p.dir), 'token');
    fs.writeFileSync(tokenFile, 'sekrit-token\n', { mode: 0o600 });
    const refused = await runCli(['serve', '--http', '0.0.0.0:0', '--token-file', tokenFile], { env: p.env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /only a loopback address/);
    // A token no Authorization header could carry is refused at start, not on every request.
    const spaced = path.join(path.dirname(p.dir), 'spaced-token');
    fs.writeFileSync(spaced, 'my token\n', { mode: 0o600 });
    const twoWords = await runCli(['serve', '--http', '127.0.0.1:0', '--token-file', spaced], { env: p.env });
    assert.equal(twoWords.code, 1);
    assert.match(twoWords.stderr, /white space inside the token/);
    const server = await startServer(p, ['--http', '127.0.0.1:0', '--token-file', tokenFile]);
    assert.ok(server.http);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'fire',
      params: { event: 'BeforeTool', input: { tool_name: 'x' }, cwd: p.dir },
    });
    const post = (auth?: string) => fetch(server.http!, { method: 'POST', body, headers: auth ? { authorization: auth } : {} });
    assert.equal((await post()).status, 401);
    assert.equal((await post('Bearer wrong')).status, 401);
    const ok = await post('Bearer sekrit-token');
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as any).result.output.systemMessage, 'ran web');

    // An HTTP client that goes away cancels its hook too.
    const pidFile = path.join(path.dirname(p.dir), 'pid');
    fs.writeFileSync(
      path.join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: { BeforeTool: [{ matcher: 'hang', hooks: [cmd(`${hook('serve-hang.sh')} '${pidFile}'`, { timeout: 600000 })] }] },
      }),
    );
    const req = http.request(server.http!, { method: 'POST', headers: { authorization: 'Bearer sekrit-token' } });
    req.on('error', () => {});
    req.end(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'fire', params: { event: 'BeforeTool', input: { tool_name: 'hang' }, cwd: p.dir } }),
    );
    await appears(pidFile);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    req.destroy();
    await gone(pid);
    assert.equal(alive(pid), false);
  });

  test('shutdown cancels hooks in flight and exits cleanly, leaving no hook process', async () => {
    const p = project({});
    const pidFile = path.join(path.dirname(p.dir), 'pid');
    const persistPid = path.join(path.dirname(p.dir), 'persist-pid');
    fs.writeFileSync(
      path.join(p.home, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: {
          BeforeTool: [
            { matcher: 'hang', hooks: [cmd(`${hook('serve-hang.sh')} '${pidFile}'`, { timeout: 600000 })] },
            { matcher: 'warm', hooks: [cmd(`${hook('serve-persist.mjs')} '${persistPid}'`, { persistent: true })] },
          ],
        },
      }),
    );
    const server = await startServer(p);
    const c = new Client(server.socket);
    // The persistent hook stays up between events (the same process counts both).
    const warm1 = await c.call('fire', { event: 'BeforeTool', input: { tool_name: 'warm' }, cwd: p.dir }, 'w1');
    const warm2 = await c.call('fire', { event: 'BeforeTool', input: { tool_name: 'warm' }, cwd: p.dir }, 'w2');
    assert.deepEqual([warm1.result.output.systemMessage, warm2.result.output.systemMessage], ['event 1', 'event 2']);
    const persistent = Number(fs.readFileSync(persistPid, 'utf8'));
    assert.ok(alive(persistent));
    const hanging = c.call('fire', { event: 'BeforeTool', input: { tool_name: 'hang' }, cwd: p.dir });
    await appears(pidFile);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    const d = new Client(server.socket);
    assert.deepEqual((await d.call('shutdown', {}, 9)).result, { stopping: true });
    assert.equal(await server.exited, 0);
    assert.equal(alive(pid), false);
    await gone(persistent);
    assert.equal(fs.existsSync(server.socket), false);
    const r = await hanging;
    assert.match(r.result.runs[0].error ?? '', /BeforeTool hook/);
  });
});

let counter = 0;
/** A scratch folder path for markers of hooks defined before their project exists. */
function p0(): string {
  const d = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), `hookline-serve-${counter++}-`));
  return path.join(d, 'x');
}
