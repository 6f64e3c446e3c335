#!/usr/bin/env node
// `hookline`: starts the bundled CLI (cli.cjs beside this file, or fire.cjs for `fire`) with V8's compile cache, so a
// start reads compiled code instead of parsing the bundle again. Node 22.1+ has the cache built
// in (module.enableCompileCache); on older Node the bundle is compiled here with cached data, one
// cache file per command and build. The cache lives in a folder only the user can write
// ($XDG_CACHE_HOME/hookline, else ~/.cache/hookline); anything else there is ignored.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Written by scripts/bundle.mjs.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

const BUILD = '@BUILD@';
/** latin1 when the bundle is all ASCII: read as one-byte text, with no UTF-8 decoding. */
const ENCODING = '@ENCODING@';
// `fire` has a bundle of its own: an event loads only what firing it needs.
const BUNDLE = path.join(__dirname, process.argv[2] === 'fire' ? 'fire.cjs' : 'cli.cjs');
const COMMANDS = [
  'fire',
  'list',
  'validate',
  'trust',
  'serve',
  'agent',
  'enable',
  'disable',
  'enable-all',
  'disable-all',
  'completion',
  'test',
  'init',
  'doctor',
  'convert',
  'mcp-proxy',
  'trace',
  'explain',
  'stats',
  'replay',
  'relay',
  'install',
  'uninstall',
];

/** The user's own cache folder, or undefined when it is not safely theirs. */
function cacheDir() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || typeof process.getuid !== 'function') return undefined;
  const base =
    process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
      ? process.env.XDG_CACHE_HOME
      : path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'hookline');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownedByMe(fs.lstatSync(dir), true) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Ours, and writable by no one else. */
function ownedByMe(st, isDir) {
  return (isDir ? st.isDirectory() : st.isFile()) && st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

function readCache(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    return ownedByMe(fs.fstatSync(fd), false) ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(file, data) {
  // Caches of other builds are of no more use.
  for (const old of fs.readdirSync(path.dirname(file))) {
    if (old.startsWith('cli-') && !old.startsWith(`cli-${BUILD}-`) && old.endsWith('.cache'))
      fs.rmSync(path.join(path.dirname(file), old), { force: true });
  }
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // not written
    }
  }
}

/** Runs one CommonJS file of the bundle, compiled with cached data kept under `name`; returns its exports. */
function runCached(dir, bundle, name) {
  const vm = require('node:vm');
  const file = path.join(dir, `cli-${BUILD}-${process.version}-${process.arch}-${name}.cache`);
  const cached = readCache(file);
  const source = fs.readFileSync(bundle, ENCODING);
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    cachedData: cached,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // After the command: the cache then holds the functions it compiled, not only the top level.
  if (!cached || script.cachedDataRejected) process.once('exit', () => writeCache(file, script.createCachedData()));
  const mod = { exports: {}, id: bundle, filename: bundle, loaded: false };
  const plain = Module.createRequire(bundle);
  // fire.cjs requires the packages it seldom needs from vendor*.cjs beside it: compiled the same way.
  const vendors = new Map();
  const req = Object.assign((id) => {
    const vendor = /^\.\/(vendor[\w-]*)\.cjs$/.exec(id)?.[1];
    if (!vendor) return plain(id);
    if (!vendors.has(vendor)) vendors.set(vendor, runCached(dir, path.join(__dirname, `${vendor}.cjs`), vendor));
    return vendors.get(vendor);
  }, plain);
  script.runInThisContext()(mod.exports, req, mod, bundle, path.dirname(bundle));
  mod.loaded = true;
  return mod.exports;
}

function start() {
  const dir = cacheDir();
  if (dir && typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(dir);
    require(BUNDLE);
    return;
  }
  if (!dir) {
    require(BUNDLE);
    return;
  }
  runCached(dir, BUNDLE, COMMANDS.includes(process.argv[2]) ? process.argv[2] : 'other');
}

start();
