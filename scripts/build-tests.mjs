// The tests as plain JavaScript, for `npm test`: test/**/*.ts (not its fixtures) compiled into
// test-build/, one file for each, each import of src/ pointing at the same module in dist/ (built
// from it by tsc just before). Node then runs them without a TypeScript loader in every test
// process. A test's import.meta is still its file under test/, so it finds what is beside it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = path.join(ROOT, 'test-build');
const TEST = path.join(ROOT, 'test');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

const sources = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'fixtures') walk(p);
    else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) sources.push(p);
  }
};
walk(TEST);

/** Every import stays an import; one of src/ (written `….js`, as TypeScript has it) goes to dist/. */
const relink = {
  name: 'relink',
  setup(build) {
    // A test finds the files beside it (fixtures, packs, helper scripts) from its own location:
    // its import.meta is set to test/'s file before its code runs (on its first line, so the
    // source map's lines stay the file's own).
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      const meta = { url: pathToFileURL(args.path).href, dirname: path.dirname(args.path), filename: args.path };
      const prologue = Object.entries(meta)
        .map(([k, v]) => `import.meta.${k} = ${JSON.stringify(v)};`)
        .join(' ');
      return { contents: `${prologue} ${text}`, loader: 'ts' };
    });
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      const target = path.resolve(args.resolveDir, args.path);
      const inSrc = target.startsWith(SRC + path.sep);
      if (!inSrc) {
        // Another test module (compiled beside this one) or a file outside test/ and src/ (scripts/, bench/): as written.
        const outside = !target.startsWith(TEST + path.sep) || target.includes(`${path.sep}fixtures${path.sep}`);
        if (!outside) return { path: args.path, external: true };
        return {
          path: path
            .relative(path.join(OUT, path.relative(TEST, args.resolveDir)), target)
            .split(path.sep)
            .join('/'),
          external: true,
        };
      }
      const built = path.join(DIST, path.relative(SRC, target));
      const from = path.join(OUT, path.relative(TEST, args.resolveDir));
      let rel = path.relative(from, built).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return { path: rel, external: true };
    });
  },
};

// Tests of dist/ older than src/ would pass or fail on code no longer there.
const newest = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((m, e) => Math.max(m, fs.statSync(path.join(e.parentPath ?? e.path, e.name)).mtimeMs), 0);
const built = fs.existsSync(path.join(DIST, 'index.js')) ? fs.statSync(path.join(DIST, 'index.js')).mtimeMs : 0;
if (newest(SRC) > built) {
  process.stderr.write(
    'dist/ is older than src/: run `npm run build` first (npm test does), or `node scripts/test.mjs --tsx` to test src/ as it is\n',
  );
  process.exit(1);
}

fs.rmSync(OUT, { recursive: true, force: true });
await esbuild.build({
  entryPoints: sources,
  outbase: TEST,
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  outExtension: { '.js': '.js' },
  plugins: [relink],
  logLevel: 'warning',
});
// ES modules, as test/ is (the project is "type": "module").
fs.writeFileSync(path.join(OUT, 'package.json'), '{ "type": "module" }\n');
