// Runs every test file under test/ with node's test runner (Node 20 has no --test globs).
// `--agents` runs the real-agent suite (test/real-agents) instead, and `--package` the packed
// tarball installed as users install it (test/package): the default run leaves both out.
// The tests run as JavaScript (scripts/build-tests.mjs, against dist/ as just built), so no test
// process loads a TypeScript loader; `--tsx` runs the TypeScript as written, against src/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const agents = process.argv.includes('--agents');
const pkg = process.argv.includes('--package');
const tsx = process.argv.includes('--tsx');
const REAL_AGENTS = path.join('test', 'real-agents');
const PACKAGE = path.join('test', 'package');
const own = agents ? REAL_AGENTS : pkg ? PACKAGE : undefined;
const files = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'fixtures' && (own || (p !== REAL_AGENTS && p !== PACKAGE))) walk(p);
    else if (e.isFile() && e.name.endsWith('.test.ts')) files.push(p);
  }
};
walk(own ?? 'test');
const only = process.argv.slice(2).filter((a) => !['--agents', '--package', '--tsx'].includes(a));
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (!selected.length) {
  process.stderr.write(`no test file under test/ matches ${only.map((o) => JSON.stringify(o)).join(' or ')}\n`);
  process.exit(1);
}
// Hook traces are off unless a test turns them on (it then names its own trace folder). The CLI's
// compile cache is shared by every test (each has its own HOME), in a folder of this run's own.
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-test-cache-'));
const env = { ...process.env, HOOKLINE_TRACE: process.env.HOOKLINE_TRACE ?? '0', XDG_CACHE_HOME: cache };
// Node reads NODE_EXTRA_CA_CERTS's bundle at every start (a tenth of a second where a machine sets
// one) and these tests make no TLS connection (all is on loopback); the real agents' install may.
if (!agents) delete env.NODE_EXTRA_CA_CERTS;
// The real agents are installed once into the user's cache, not into this run's throwaway one.
if (agents && !env.HOOKLINE_AGENTS_CACHE)
  env.HOOKLINE_AGENTS_CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'hookline', 'real-agents');
// The largest files (the longest, mostly) start first, so none is left running alone at the end.
const bySize = selected.map((f) => [fs.statSync(f).size, f]).sort((a, b) => b[0] - a[0] || a[1].localeCompare(b[1]));
// Compiled in this process (it exits 1 with its reason when dist/ is older than src/).
if (!tsx) await import('./build-tests.mjs');
const run = bySize.map(([, f]) => (tsx ? f : path.join('test-build', path.relative('test', f)).replace(/\.ts$/, '.js')));
const loader = tsx ? ['--import', 'tsx'] : ['--enable-source-maps'];
const r = spawnSync(process.execPath, [...loader, '--test', '--test-concurrency=2', ...run], {
  stdio: 'inherit',
  env,
});
fs.rmSync(cache, { recursive: true, force: true });
process.exit(r.status ?? 1);
