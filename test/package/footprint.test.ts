// Light to install, measured: the packed tarball installed as a library (a project's dependency)
// and as a global command, each within its targets of packages and size. The command needs none
// of its optional peers: the agent runs on a scripted model and mcp-proxy serves, and a provider
// that is not installed is one line naming it. A fresh project that installs Hookline and an
// adapter hears, on its first run, which hooks were held back and how to trust them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES, ROOT } from '../helpers.js';
import { footprint, localRegistry, run, type LocalRegistry } from './registry.js';

/** The core library, as a project installs it: hookline and what it needs on every fire. */
const LIBRARY = { packages: 14, megabytes: 14 };
/** `npm install -g hookline`: the library's packages, the bundled command beside them. */
const GLOBAL = { packages: 14, megabytes: 14 };

const MB = 1024 * 1024;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let base: string;
let registry: LocalRegistry;
const setup = async () => {
  if (registry) return registry;
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-footprint-'));
  registry = await localRegistry(base);
  return registry;
};
after(() => {
  registry?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A fresh npm project with `packages` installed into it. */
async function project(name: string, packages: string[]): Promise<string> {
  const r = await setup();
  const dir = path.join(base, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }));
  await run('npm', ['install', '--no-package-lock', ...packages], { cwd: dir, env: r.npmEnv });
  return dir;
}

test(`a library install is at most ${LIBRARY.packages} packages and ${LIBRARY.megabytes} MB`, { timeout: 180_000 }, async (t) => {
  const r = await setup();
  const dir = await project('library', [r.tarball]);
  const f = footprint(path.join(dir, 'node_modules'));
  t.diagnostic(`library install: ${f.packages.length} packages, ${(f.bytes / MB).toFixed(1)} MB: ${f.packages.join(' ')}`);
  assert.deepEqual(f.packages, ['hookline', ...Object.keys(pkg.dependencies)].sort(), 'only hookline and its own dependencies');
  assert.ok(f.packages.length <= LIBRARY.packages, `${f.packages.length} packages`);
  assert.ok(f.bytes <= LIBRARY.megabytes * MB, `${(f.bytes / MB).toFixed(1)} MB`);
  // The library and the hook SDK load from it.
  const loaded = await run(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('hookline'); await import('hookline/sdk'); console.log(typeof m.HookEngine)"],
    {
      cwd: dir,
    },
  );
  assert.equal(loaded.stdout.trim(), 'function');
});

test(`a global install is at most ${GLOBAL.packages} packages and ${GLOBAL.megabytes} MB, and its commands need nothing more`, {
  timeout: 180_000,
}, async (t) => {
  const r = await setup();
  const prefix = path.join(base, 'global');
  await run('npm', ['install', '-g', '--prefix', prefix, r.tarball], { env: r.npmEnv });
  const f = footprint(path.join(prefix, 'lib', 'node_modules'));
  t.diagnostic(`global install: ${f.packages.length} packages, ${(f.bytes / MB).toFixed(1)} MB`);
  assert.ok(f.packages.length <= GLOBAL.packages, `${f.packages.length} packages: ${f.packages.join(' ')}`);
  assert.ok(f.bytes <= GLOBAL.megabytes * MB, `${(f.bytes / MB).toFixed(1)} MB`);

  const home = path.join(base, 'global-home');
  const work = path.join(base, 'global-work');
  fs.mkdirSync(home);
  fs.mkdirSync(work);
  const env = {
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    GEMINI_CLI_HOME: home,
    HOOKLINE_TRACE: '0',
  };
  // The agent on a scripted model: the AI SDK is in the command.
  fs.writeFileSync(path.join(work, 'script.jsonl'), '{"text": "hello from the script"}\n');
  const agent = await run('hookline', ['agent', '--model', 'scripted:script.jsonl', '-p', 'hi'], { cwd: work, env });
  assert.match(agent.stdout, /hello from the script/);
  // A provider that is not installed: one line naming it and how to install it.
  const gemini = await run('hookline', ['agent', '--model', 'gemini:flash', '-p', 'hi'], {
    cwd: work,
    env: { ...env, GEMINI_API_KEY: 'x' },
  }).catch((e) => e);
  assert.equal(gemini.code, 1);
  assert.equal(
    gemini.stderr,
    'hookline: --model gemini:… needs the package @ai-sdk/google, which is not installed — install it beside hookline: npm install @ai-sdk/google@^3.0.0 (for a global hookline: npm install -g @ai-sdk/google@^3.0.0)\n',
  );
  // mcp-proxy: the MCP SDK is in the command too.
  const proxy = spawn('hookline', ['mcp-proxy', '--', process.execPath, path.join(FIXTURES, 'mcp', 'server.mjs')], { cwd: work, env });
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  proxy.stdin.write(`${JSON.stringify(init)}\n`);
  const answer = await new Promise<string>((resolve) => {
    let out = '';
    proxy.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out);
    });
    proxy.on('close', () => resolve(out));
  });
  proxy.kill();
  assert.equal(JSON.parse(answer.split('\n')[0]).id, 1, answer);
});

test('a fresh project with hookline and the AI SDK hears on its first run which hooks were held back', { timeout: 180_000 }, async () => {
  const r = await setup();
  const dir = await project('ai-app', [r.tarball, `ai@${pkg.devDependencies.ai}`]);
  // One copy of the AI SDK: the app's own.
  assert.equal(fs.existsSync(path.join(dir, 'node_modules', 'hookline', 'node_modules', 'ai')), false);
  fs.mkdirSync(path.join(dir, '.gemini'));
  fs.writeFileSync(
    path.join(dir, '.gemini', 'settings.json'),
    JSON.stringify({
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: `printf '{"decision":"deny","reason":"no"}'` }] }] },
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'app.mjs'),
    `import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createHooks } from 'hookline/ai-sdk';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV3({ doGenerate: [
  { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shell', input: '{"command":"rm -rf build"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
] });
const hooks = createHooks();
const shell = tool({ inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }), execute: async () => 'ran' });
const r = await generateText({ model, tools: hooks.tools({ shell }), prompt: 'clean up', stopWhen: stepCountIs(3) });
console.log(r.steps[0].toolResults[0].output);
`,
  );
  const home = path.join(base, 'ai-home');
  fs.mkdirSync(home);
  const first = await run(process.execPath, ['app.mjs'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: home, GEMINI_CLI_HOME: home, HOOKLINE_TRACE: '0' },
  });
  assert.equal(first.stdout.trim(), 'ran', 'the held-back guard did not run');
  assert.equal(
    first.stderr,
    `hookline: ${dir} is not a trusted folder: its 1 workspace hook(s) do not run. Review .gemini/settings.json, then run: hookline trust ${JSON.stringify(dir)}\n`,
  );
});
