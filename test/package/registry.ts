// An npm registry on 127.0.0.1 serving the packages of package-lock.json from this checkout's
// node_modules, so installing the packed tarball (and a framework beside it) needs no network;
// npm runs with a throwaway cache.
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers.js';

export const run = promisify(execFile);

/** Tarballs and packuments for every package of package-lock.json (dev ones too), made from node_modules. */
function localPackages(base: string): { packuments: Map<string, any>; tarballs: Map<string, string> } {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; link?: boolean }>;
  };
  const packuments = new Map<string, any>();
  const tarballs = new Map<string, string>();
  for (const [where, info] of Object.entries(lock.packages)) {
    const dir = path.join(ROOT, where);
    if (!where || info.link || !fs.existsSync(path.join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = path.join(base, `${pkg.name.replace('/', '__')}-${pkg.version}.tgz`);
    if (!fs.existsSync(file)) {
      // npm tarballs hold the package under `package/`; nested node_modules are not part of it.
      execFileSync('tar', ['czf', file, '--exclude=./node_modules', '--transform', 's,^\\.,package,', '-C', dir, '.']);
    }
    const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
    const url = `/-/${path.basename(file)}`;
    tarballs.set(url, file);
    const doc = packuments.get(pkg.name) ?? { name: pkg.name, versions: {}, 'dist-tags': {} };
    doc.versions[pkg.version] = { ...pkg, dist: { tarball: url, integrity } };
    doc['dist-tags'].latest = pkg.version;
    packuments.set(pkg.name, doc);
  }
  return { packuments, tarballs };
}

export interface LocalRegistry {
  /** The environment npm runs with: this registry, a cache of its own, no audit or notices. */
  npmEnv: NodeJS.ProcessEnv;
  /** `npm pack` of this checkout, in `base`. */
  tarball: string;
  close(): void;
}

/** Starts the registry and packs this checkout; `base` holds the tarballs and npm's cache. */
export async function localRegistry(base: string): Promise<LocalRegistry> {
  const { packuments, tarballs } = localPackages(base);
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    const tarball = tarballs.get(url);
    if (tarball) return res.end(fs.readFileSync(tarball));
    const doc = packuments.get(url.slice(1));
    if (!doc) return res.writeHead(404).end('{}');
    const host = `http://${req.headers.host}`;
    const versions = Object.fromEntries(
      Object.entries(doc.versions).map(([v, m]: [string, any]) => [v, { ...m, dist: { ...m.dist, tarball: host + m.dist.tarball } }]),
    );
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ...doc, versions }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const npmEnv = {
    ...process.env,
    npm_config_registry: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    npm_config_cache: path.join(base, 'cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const packed = (await run('npm', ['pack', '--silent', '--pack-destination', base], { cwd: ROOT, env: npmEnv })).stdout
    .trim()
    .split('\n')
    .pop()!;
  return { npmEnv, tarball: path.join(base, packed), close: () => server.close() };
}

/** The packages installed under a node_modules folder (nested ones included), and their size on disk. */
export function footprint(nodeModules: string): { packages: string[]; bytes: number } {
  const packages: string[] = [];
  let bytes = 0;
  const walk = (dir: string, inModules: boolean) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) {
        if (inModules && e.name.startsWith('@')) {
          walk(p, true);
          continue;
        }
        if (inModules && !e.name.startsWith('.') && fs.existsSync(path.join(p, 'package.json')))
          packages.push(path.relative(nodeModules, p));
        walk(p, e.name === 'node_modules');
      } else if (e.isFile()) bytes += fs.statSync(p).size;
    }
  };
  walk(nodeModules, true);
  return { packages: packages.sort(), bytes };
}
