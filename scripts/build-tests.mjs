// The tests as plain JavaScript, for `npm test`: test/**/*.ts (not its fixtures) compiled into
// test-build/, one file for each, each import of src/ pointing at the same module in dist/ (built
// from it by tsc just before). Node then runs them without a TypeScript loader in every test
// process. A test's import.meta is still its file under test/, so it finds what is beside it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'test-build');
const TEST = path.join(ROOT, 'test');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

const sources = fs
  .readdirSync(TEST, { recursive: true })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split(path.sep).includes('fixtures'))
  .map((f) => path.join(TEST, f));

/** `target` as an import from the compiled twin of the test folder `dir`. */
const linkFrom = (dir, target) => {
  const rel = path
    .relative(path.join(OUT, path.relative(TEST, dir)), target)
    .split(path.sep)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/**
 * Every import stays an import: one of src/ (written `….js`, as TypeScript has it) goes to the
 * same module in dist/, one of another test module as written (it is compiled beside this one),
 * and one of anything else (fixtures, scripts/, bench/) to that file where it is.
 */
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
      if (target.startsWith(SRC + path.sep))
        return { path: linkFrom(args.resolveDir, path.join(DIST, path.relative(SRC, target))), external: true };
      const testModule = target.startsWith(TEST + path.sep) && !target.includes(`${path.sep}fixtures${path.sep}`);
      return { path: testModule ? args.path : linkFrom(args.resolveDir, target), external: true };
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
  plugins: [relink],
  logLevel: 'warning',
});
// ES modules, as test/ is (the project is "type": "module").
fs.writeFileSync(path.join(OUT, 'package.json'), '{ "type": "module" }\n');
