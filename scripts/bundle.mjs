// The `hookline` command as installed: src/cli/main.ts and everything it loads bundled into one
// CommonJS file, dist/bin/cli.cjs, started by dist/bin/hookline.cjs (package.json "bin"), which
// gives it V8's compile cache. A command's own code is still evaluated only when it runs (the
// bundle keeps the CLI's lazy imports lazy), and the zod schemas load only when a value is not
// plainly valid (src/config/lazy-schema.ts, src/events/lazy-schema.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bin');

/** `import * as x from 'y'; export const f = (): typeof x => x;` becomes a first-call `require`. */
const lazySchemas = {
  name: 'lazy-schemas',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/](config|events)[\\/]lazy-schema\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      const imp = /^import \* as (\w+) from '([^']+)';$/m.exec(text);
      const exp = imp && new RegExp(`^export const (\\w+) = \\(\\): typeof ${imp[1]} => ${imp[1]};$`, 'm').exec(text);
      if (!imp || !exp) throw new Error(`${args.path}: expected "import * as x from '…'" and "export const f = (): typeof x => x;"`);
      return {
        contents: `let loaded;\nexport const ${exp[1]} = () => (loaded ??= require(${JSON.stringify(imp[2])}));\n`,
        loader: 'ts',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * Each module's `import.meta.url` is where tsc puts it under dist/, so its relative paths still hold.
 * A package loaded on first use by name (`createRequire(import.meta.url)('re2js')`) is a plain
 * require here, so the bundle holds it (or, for `fire`, takes it from vendor.cjs).
 */
const metaUrl = {
  name: 'meta-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = path.relative(path.join(ROOT, 'src'), args.path).replace(/\.ts$/, '.js').split(path.sep).join('/');
      return {
        contents: text
          .replace(/createRequire\(import\.meta\.url\)\(('[^']+')\)/g, 'require($1)')
          .replaceAll('import.meta.url', `__hooklineDistUrl(${JSON.stringify(rel)})`),
        loader: 'ts',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * For `fire`: the large packages only some events need come from files beside it, each read only
 * when one of its packages is first required (the launcher compiles each with a cache of its own),
 * so an event's start-up reads a third of the bytes: RE2 for regular-expression matchers, commander
 * for help and mistakes, and the rest (zod when a value is not plainly valid, the AI SDK for prompt
 * hooks, OpenTelemetry, yaml) together, as they share dependencies. One shim per package name, so
 * the bundle and the vendor file share one instance of each.
 */
const VENDOR = [
  { file: 'vendor-re2.cjs', match: /^re2js$/ },
  { file: 'vendor-commander.cjs', match: /^commander$/ },
  { file: 'vendor.cjs', match: /^(zod|ai|yaml|@ai-sdk\/(gateway|provider|provider-utils)|@opentelemetry\/[^/]+)(\/.*)?$/ },
];
function vendorShims(names) {
  return {
    name: 'vendor-shims',
    setup(build) {
      for (const { file, match } of VENDOR) {
        build.onResolve({ filter: match }, (args) => {
          names.get(file).add(args.path);
          return { path: `${file}:${args.path}`, namespace: 'vendor' };
        });
      }
      build.onResolve({ filter: /^\.\/vendor[\w-]*\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
        const [file, name] = args.path.split(/:(.*)/s);
        return { contents: `module.exports = require('./${file}')[${JSON.stringify(name)}];`, loader: 'js', resolveDir: OUT };
      });
    },
  };
}

/** A package that src/ requires by name resolves as its imports do: one copy, not its CommonJS build beside the ES one. */
const requireAsImport = {
  name: 'require-as-import',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (args) => {
      if (args.kind !== 'require-call' || !/[\\/]src[\\/]/.test(args.importer) || args.pluginData === 'as-import') return undefined;
      return build.resolve(args.path, {
        kind: 'import-statement',
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'as-import',
      });
    });
  },
};

/**
 * esbuild gives every module that imports a Node builtin by default (`import fs from 'node:fs'`)
 * a namespace of its own: a getter per export, all made at start-up (about 2,500 for one event).
 * A builtin's exports are complete once it is required, so each builtin's calls share one
 * namespace (made by esbuild's own helper, the first time). Fails the build if the helper changed shape.
 */
function oneNamespacePerBuiltin(code) {
  const calls = /\(require\("node:[\w/]+"\),\s*1\)/;
  const helper = /([\w$]+)\s*=\s*\((\w+),\s*(\w+),\s*(\w+)\)\s*=>\s*\(\s*\4\s*=\s*\2\s*!=\s*null\s*\?[^;]{0,400}?\.__esModule\s*\?/.exec(
    code,
  );
  if (!helper) {
    if (calls.test(code)) throw new Error("scripts/bundle.mjs: esbuild's __toESM helper not found; update oneNamespacePerBuiltin");
    return code;
  }
  const name = helper[1].replaceAll('$', '\\$');
  const wrapped = new RegExp(`(?<![\\w$.])${name}\\(require\\(("node:[\\w/]+")\\),\\s*1\\)`, 'g');
  const out = code.replace(wrapped, (_, spec) => `__hooklineBuiltin(${helper[1]},${spec})`);
  if (calls.test(out)) throw new Error('scripts/bundle.mjs: a builtin import left unshared; update oneNamespacePerBuiltin');
  return out;
}

fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });

/** Bundles one entry (a path under src/) into dist/bin; returns its code. */
async function bundle(entry, outName, extra = {}) {
  const { plugins = [], ...options } = extra;
  const result = await esbuild.build({
    entryPoints: typeof entry === 'string' ? [path.join(ROOT, 'src', entry)] : undefined,
    stdin: typeof entry === 'string' ? undefined : { ...entry, resolveDir: ROOT, loader: 'js' },
    outfile: path.join(OUT, outName),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Packages that ship both builds: the ESM one (jsonc-parser's CommonJS build is UMD).
    mainFields: ['module', 'main'],
    // Short names too: less to read and to keep in the cache. Class names stay (error messages use them).
    minify: true,
    keepNames: false,
    legalComments: 'none',
    banner: {
      js: `const __hooklineDistUrl=(p)=>require("node:url").pathToFileURL(require("node:path").join(__dirname,"..",p)).href;const __hooklineBundleUrl=require("node:url").pathToFileURL(__filename).href;const __hooklineBuiltins=new Map();const __hooklineBuiltin=(h,s)=>{let n=__hooklineBuiltins.get(s);if(n===undefined)__hooklineBuiltins.set(s,(n=h(require(s),1)));return n};`,
    },
    // A package's own import.meta.url (e.g. for createRequire) is the bundle's: it resolves from here.
    define: { 'import.meta.url': '__hooklineBundleUrl' },
    plugins: [...plugins, requireAsImport, lazySchemas, metaUrl],
    // Everything the command uses is in the bundle (the AI SDK, the MCP SDK, OpenTelemetry), so an
    // install needs none of it; the lazy imports keep each unevaluated until its command runs. The
    // model providers are optional peer dependencies, required from beside Hookline when named.
    external: ['@ai-sdk/anthropic', '@ai-sdk/google', '@ai-sdk/openai-compatible'],
    charset: 'ascii',
    // No import() left in the bundle: code compiled from a cache has no dynamic-import callback on
    // Node 20, so the external packages above are loaded with require (each has a CommonJS build).
    supported: { 'dynamic-import': false },
    logLevel: 'warning',
    write: false,
    ...options,
  });
  // The launcher compiles this file itself (vm.Script takes no hashbang line).
  // What esbuild leaves unescaped (inside regular expression literals) is escaped here, so the file
  // is all ASCII and the launcher reads it as one-byte text, with no UTF-8 decoding.
  const code = oneNamespacePerBuiltin(result.outputFiles[0].text)
    .replace(/^#!.*\n/, '')
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  fs.writeFileSync(path.join(OUT, outName), code);
  return code;
}

// Every command, and `fire` alone: an event's start-up reads and runs a third of the code.
const vendored = new Map(VENDOR.map(({ file }) => [file, new Set()]));
const codes = [await bundle('cli/main.ts', 'cli.cjs'), await bundle('cli/fire-main.ts', 'fire.cjs', { plugins: [vendorShims(vendored)] })];
for (const [file, names] of vendored) {
  if (!names.size) throw new Error(`${file}: fire.cjs requires none of its packages any more — drop it from VENDOR`);
  // Each name a getter, so requiring the file evaluates none of the packages until one is asked for.
  const getters = [...names].sort().map((name) => `  get ${JSON.stringify(name)}() { return require(${JSON.stringify(name)}); },`);
  codes.push(await bundle({ contents: `module.exports = {\n${getters.join('\n')}\n};\n` }, file));
}
// What an agent's Hookline entry runs per event: a socket client with almost nothing else in it.
const relay = await bundle('relay/client.ts', 'relay.cjs');
if (relay.length > 64 * 1024) throw new Error(`dist/bin/relay.cjs is ${relay.length} bytes: the light client must stay light`);
// The shell client beside it (command entries reach the warm server over loopback with it).
fs.copyFileSync(new URL('../src/relay/relay.sh', import.meta.url), path.join(OUT, 'relay.sh'));
fs.chmodSync(path.join(OUT, 'relay.sh'), 0o755);
const hash = crypto.createHash('sha256');
for (const code of codes) hash.update(code);
const build = hash.digest('hex').slice(0, 16);
const ascii = codes.every((code) => !/[^\x00-\x7f]/.test(code));
const launcher = fs
  .readFileSync(path.join(ROOT, 'scripts', 'launcher.cjs'), 'utf8')
  .replace("'@BUILD@'", JSON.stringify(build))
  .replace("'@ENCODING@'", ascii ? "'latin1'" : "'utf8'");
if (!launcher.includes(build) || launcher.includes('@ENCODING@')) throw new Error('scripts/launcher.cjs: placeholders missing');
fs.writeFileSync(path.join(OUT, 'hookline.cjs'), launcher, { mode: 0o755 });
fs.chmodSync(path.join(OUT, 'hookline.cjs'), 0o755);
