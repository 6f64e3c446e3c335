/**
 * Codex plugins, found where Codex 0.169 finds them: `$CODEX_HOME/plugins/cache/<marketplace>/
 * <plugin>/<version>/` (what `codex plugin add` installs), turned on by a `[plugins."<plugin>@
 * <marketplace>"]` table in a config.toml Codex reads (`enabled = true`, the default; the
 * project's `.codex/config.toml` over the user's, the user's over the system's). A version folder
 * named `local` is the one used; otherwise the greatest name (two semantic versions compare as
 * versions, anything else as text). The manifest is `.codex-plugin/plugin.json`, else
 * `.claude-plugin/plugin.json`; its `hooks` names the plugin's hook files (`"./path"`, or a list of
 * them) or holds them (an object, or a list of objects); without a usable `hooks`, the plugin's
 * `hooks/hooks.json`.
 *
 * A plugin hook's trust key is `<id>:<file in the plugin>:<event>:<group>:<handler>` (inline hooks:
 * `plugin.json#hooks[<n>]`), and besides the hook's own hash Codex records the plugin's contents
 * ({@link codexPluginFingerprint}): a plugin that changed since it was reviewed is held back.
 * Its commands get `PLUGIN_ROOT`, `PLUGIN_DATA` (`$CODEX_HOME/plugins/data/<plugin>-<marketplace>`,
 * which Codex does not create) and the same two as `CLAUDE_PLUGIN_ROOT`/`CLAUDE_PLUGIN_DATA`, in
 * the environment and as `${NAME}` in the command text.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseJson } from '../../config/jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep } from '../../config/limits.js';
import { jsonPath, type ConfigProblem } from '../../config/problems.js';
import { expandVariables } from '../../run/expand.js';
import { isObject } from '../json.js';

export interface CodexPlugin {
  /** `<plugin>@<marketplace>`. */
  id: string;
  /** `${PLUGIN_ROOT}`: the version folder in use. */
  root: string;
  /** `${PLUGIN_DATA}`. */
  data: string;
  /** The config.toml whose `[plugins]` table decided. */
  enabledIn: string;
  /** Turned on by a project's `.codex/config.toml` and by no file of the user's: workspace configuration. */
  workspace: boolean;
}

/** One config.toml's `[plugins]` table, as read. */
export interface PluginTable {
  file: string;
  /** The user's or the system's (not a project's). */
  own: boolean;
  value: unknown;
}

/** A file (or an inline object) of hooks a plugin gives. */
export interface PluginHookSource {
  /** The file the hooks are read from (the manifest for inline hooks). */
  file: string;
  /** How the trust key names it: the file relative to the plugin, or `plugin.json#hooks[<n>]`. */
  keyName: string;
  /** Inline hooks: the object holding `hooks`, and where it is in the manifest. */
  inline?: { value: unknown; at: Array<string | number> };
}

/** Plugin and marketplace names as Codex accepts them in an id (it skips the others). */
const PLUGIN_NAME = /^[A-Za-z0-9_.-]+$/;
const MARKETPLACE_NAME = /^[A-Za-z0-9_-]+$/;

/** `<plugin>@<marketplace>` split, or undefined when Codex would not accept it. */
export function parsePluginId(id: string): { name: string; marketplace: string } | undefined {
  const at = id.lastIndexOf('@');
  if (at <= 0) return undefined;
  const name = id.slice(0, at);
  const marketplace = id.slice(at + 1);
  if (!PLUGIN_NAME.test(name) || name === '.' || name === '..' || !MARKETPLACE_NAME.test(marketplace)) return undefined;
  return { name, marketplace };
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Semantic-version precedence (a build's metadata last, as text); undefined when either is no version. */
function compareVersions(a: string, b: string): number | undefined {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (!x || !y) return undefined;
  for (let i = 1; i <= 3; i++) {
    const d = BigInt(x[i]) - BigInt(y[i]);
    if (d !== 0n) return d < 0n ? -1 : 1;
  }
  const pre = (p: string | undefined, q: string | undefined): number => {
    if (p === undefined || q === undefined) return p === q ? 0 : p === undefined ? 1 : -1;
    const ps = p.split('.');
    const qs = q.split('.');
    for (let i = 0; i < Math.max(ps.length, qs.length); i++) {
      if (ps[i] === undefined || qs[i] === undefined) return ps[i] === undefined ? -1 : 1;
      const pn = /^\d+$/.test(ps[i]);
      const qn = /^\d+$/.test(qs[i]);
      if (pn && qn && BigInt(ps[i]) !== BigInt(qs[i])) return BigInt(ps[i]) < BigInt(qs[i]) ? -1 : 1;
      if (pn !== qn) return pn ? -1 : 1;
      if (ps[i] !== qs[i]) return ps[i] < qs[i] ? -1 : 1;
    }
    return 0;
  };
  const p = pre(x[4], y[4]);
  if (p) return p;
  return (x[5] ?? '') < (y[5] ?? '') ? -1 : (x[5] ?? '') > (y[5] ?? '') ? 1 : 0;
}

/** The version folder Codex uses: `local`, else the greatest name. */
export function pluginVersion(names: readonly string[]): string | undefined {
  if (names.includes('local')) return 'local';
  let best: string | undefined;
  for (const n of [...names].sort()) {
    if (best === undefined) {
      best = n;
      continue;
    }
    const c = compareVersions(n, best) ?? (n < best ? -1 : n > best ? 1 : 0);
    if (c > 0) best = n;
  }
  return best;
}

/** `${PLUGIN_DATA}`: `<home>/plugins/data/<plugin>-<marketplace>`. */
export function codexPluginData(home: string, id: { name: string; marketplace: string }): string {
  return path.join(home, 'plugins', 'data', `${id.name}-${id.marketplace}`);
}

/**
 * The enabled plugins (in Codex's order: by id) and the problems of those that cannot be used.
 * `tables` are lowest precedence first: the system's, the user's, then each project folder's.
 */
export function enabledCodexPlugins(home: string, tables: readonly PluginTable[]): { plugins: CodexPlugin[]; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const problem = (file: string, at: Array<string | number>, message: string, severity: ConfigProblem['severity'] = 'warning') =>
    problems.push({ file, path: jsonPath(at), message, severity });
  const decided = new Map<string, { on: boolean; table: PluginTable }>();
  const byOwn = new Set<string>();
  for (const t of tables) {
    if (t.value === undefined) continue;
    if (!isObject(t.value)) {
      problem(t.file, ['plugins'], '[plugins] must be a table of "<plugin>@<marketplace>" tables; no plugin is read from it', 'error');
      continue;
    }
    for (const [id, entry] of Object.entries(t.value)) {
      if (!isObject(entry)) {
        problem(t.file, ['plugins', id], `[plugins.${JSON.stringify(id)}] must be a table (enabled = true|false); ignored`, 'error');
        continue;
      }
      if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean') {
        problem(
          t.file,
          ['plugins', id, 'enabled'],
          `enabled must be true or false, got ${JSON.stringify(entry.enabled)}; ignored`,
          'error',
        );
        continue;
      }
      const on = entry.enabled !== false;
      decided.set(id, { on, table: t });
      if (on && t.own) byOwn.add(id);
    }
  }
  const plugins: CodexPlugin[] = [];
  for (const id of [...decided.keys()].sort()) {
    const { on, table } = decided.get(id)!;
    if (!on) continue;
    const parsed = parsePluginId(id);
    if (!parsed) {
      problem(table.file, ['plugins', id], `"${id}" is not a plugin id Codex accepts ("<plugin>@<marketplace>"); its hooks do not run`);
      continue;
    }
    const folder = path.join(home, 'plugins', 'cache', parsed.marketplace, parsed.name);
    let versions: string[] = [];
    try {
      versions = fs
        .readdirSync(folder, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      // Not installed: said below.
    }
    const version = pluginVersion(versions);
    if (version === undefined) {
      problem(
        table.file,
        ['plugins', id],
        `plugin ${id} is enabled but not installed (nothing in ${folder}); its hooks do not run (codex plugin add ${id})`,
      );
      continue;
    }
    // Turned on by a project and by nothing of the user's: the repository decided.
    const workspace = !table.own && !byOwn.has(id);
    plugins.push({ id, root: path.join(folder, version), data: codexPluginData(home, parsed), enabledIn: table.file, workspace });
  }
  return { plugins, problems };
}

function readJson(file: string, problems: ConfigProblem[], prefix: string): { exists: boolean; value?: unknown } {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
    problems.push({ file, path: '', message: `${prefix}not read: ${(e as Error).message}`, severity: 'error' });
    return { exists: true };
  }
  if (textNestsDeeper(text)) {
    problems.push({ file, path: '', message: `${prefix}${tooDeep('its JSON')}`, severity: 'error' });
    return { exists: true };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problems.push({ file, path: '', message: `${prefix}${parsed.message} (Codex does not load the plugin)`, severity: 'error' });
    return { exists: true };
  }
  return { exists: true, value: parsed.value };
}

/** A `"./…"` path inside the plugin, as Codex takes a manifest's hook file; undefined otherwise. */
function pluginPath(root: string, p: unknown): { file: string; rel: string } | undefined {
  // Codex refuses any `..` on the way, even one that stays inside.
  if (typeof p !== 'string' || !p.startsWith('./') || p.split(/[\\/]/).includes('..')) return undefined;
  const rel = path.posix.normalize(p.slice(2));
  if (!rel || rel === '.' || path.isAbsolute(rel)) return undefined;
  return { file: path.join(root, ...rel.split('/')), rel };
}

/**
 * The plugin's hook sources, in the order Codex reads them. A manifest Codex cannot use is a
 * problem and no hook loads; `hooks` it cannot read falls back to `hooks/hooks.json`, as in Codex.
 */
export function codexPluginHookSources(plugin: CodexPlugin, problems: ConfigProblem[]): PluginHookSource[] {
  const manifestFile = [
    path.join(plugin.root, '.codex-plugin', 'plugin.json'),
    path.join(plugin.root, '.claude-plugin', 'plugin.json'),
  ].find((f) => fs.existsSync(f));
  const problem = (file: string, at: Array<string | number>, message: string) =>
    problems.push({ file, path: jsonPath(at), message: `plugin ${plugin.id}: ${message}`, severity: 'warning' });
  if (!manifestFile) {
    problem(
      plugin.root,
      [],
      'no .codex-plugin/plugin.json (or .claude-plugin/plugin.json): Codex does not load it, and its hooks do not run',
    );
    return [];
  }
  const manifest = readJson(manifestFile, problems, `plugin ${plugin.id}: `);
  // A manifest that does not parse loads nothing (the problem says why); one that is not an object names no hooks.
  if (manifest.value === undefined) return [];
  const standard: PluginHookSource[] = [{ file: path.join(plugin.root, 'hooks', 'hooks.json'), keyName: 'hooks/hooks.json' }];
  const h = isObject(manifest.value) ? manifest.value.hooks : undefined;
  if (h === undefined) return standard;
  const fallBack = (why: string) => {
    problem(manifestFile, ['hooks'], `${why}; Codex reads hooks/hooks.json instead`);
    return standard;
  };
  const inline = (value: unknown, n: number, at: Array<string | number>): PluginHookSource => ({
    file: manifestFile,
    keyName: `plugin.json#hooks[${n}]`,
    inline: { value, at },
  });
  if (typeof h === 'string') {
    const p = pluginPath(plugin.root, h);
    return p ? [{ file: p.file, keyName: p.rel }] : fallBack(`"hooks" must be a "./…" path inside the plugin, got ${JSON.stringify(h)}`);
  }
  if (isObject(h))
    return isObject(h.hooks) ? [inline(h, 0, ['hooks', 'hooks'])] : fallBack('inline "hooks" must be {"hooks": {Event: [...]}}');
  if (!Array.isArray(h) || !h.length) return fallBack('"hooks" must be a path, a list of paths or of {"hooks": …} objects');
  if (h.every((x) => typeof x === 'string')) {
    const out: PluginHookSource[] = [];
    h.forEach((x, i) => {
      const p = pluginPath(plugin.root, x);
      if (p) out.push({ file: p.file, keyName: p.rel });
      else problem(manifestFile, ['hooks', i], `${JSON.stringify(x)} is not a "./…" path inside the plugin: skipped, as Codex skips it`);
    });
    return out.length ? out : fallBack('no usable path in "hooks"');
  }
  if (h.every((x) => isObject(x) && isObject(x.hooks))) return h.map((x, i) => inline(x, i, ['hooks', i, 'hooks']));
  return fallBack('"hooks" mixes paths and objects, or holds an object without "hooks"');
}

/** A plugin folder holds something Codex cannot fingerprint (a symlink, a device). */
export class PluginFingerprintError extends Error {}

/**
 * What Codex records of a plugin's contents (`trusted_content_hash`): SHA-256 over
 * `codex-plugin-bundle-v1`, then every entry from the plugin's folder down, each folder's entries
 * by name: the path from the plugin's folder (u64 little-endian length, then the path, `/`
 * between names; the folder itself is the empty path), then `directory`, or `file` with the
 * content's u64 length and the content. Any other kind of entry fails, as in Codex.
 */
export function codexPluginFingerprint(root: string): string {
  const hash = crypto.createHash('sha256');
  hash.update('codex-plugin-bundle-v1');
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const entry = (rel: string, kind: string) => {
    const name = Buffer.from(rel, 'utf8');
    hash.update(u64(name.length));
    hash.update(name);
    hash.update(kind);
  };
  const walk = (dir: string, rel: string) => {
    entry(rel, 'directory');
    const names = fs.readdirSync(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    for (const name of names) {
      const full = path.join(dir, name);
      const sub = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(full);
      if (st.isDirectory()) walk(full, sub);
      else if (st.isFile()) {
        const content = fs.readFileSync(full);
        entry(sub, 'file');
        hash.update(u64(content.length));
        hash.update(content);
      } else throw new PluginFingerprintError(`unsupported plugin entry type: ${full}`);
    }
  };
  walk(root, '');
  return `sha256:${hash.digest('hex')}`;
}

/** The variables a plugin hook's command gets, in its environment and as `${NAME}` in its text. */
export function codexPluginVariables(plugin: Pick<CodexPlugin, 'root' | 'data'>): Record<string, string> {
  return { PLUGIN_ROOT: plugin.root, PLUGIN_DATA: plugin.data, CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.data };
}

/**
 * `${NAME}` of `vars` in a command, as Codex replaces them (the `$NAME` form is left to the
 * shell, which has it in the environment); each value written for where it stands, so a folder
 * with a space or a quote stays one word.
 */
export function expandCodexCommand(command: string, _projectDir: string, vars: Record<string, string>): string {
  const names = Object.keys(vars);
  if (!names.length) return command;
  return expandVariables(command, (text, i) => {
    if (text[i + 1] !== '{') return undefined;
    const name = names.find((n) => text.startsWith(`\${${n}}`, i));
    return name === undefined ? undefined : { length: name.length + 3, value: vars[name] };
  });
}
