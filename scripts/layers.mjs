// Import-layer and cycle check: every import in src/ must point to the same stage or a lower one,
// and no file may reach itself through its imports. Type-only imports count too: a type import
// from a higher stage is the same design knot, even though it vanishes at run time.
// Usage: node scripts/layers.mjs [root]   (root defaults to this repository; files under root/src)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Stages, lowest first. A file may import from its own stage and from the stages before it. */
export const STAGES = [
  { name: 'events', paths: ['src/events/'] },
  { name: 'config', paths: ['src/config/'] },
  { name: 'plan', paths: ['src/plan/'] },
  { name: 'run', paths: ['src/run/', 'src/telemetry.ts'] },
  { name: 'decide', paths: ['src/decide/'] },
  { name: 'apply', paths: ['src/apply/'] },
  { name: 'trust', paths: ['src/trust/'] },
  { name: 'engine', paths: ['src/engine.ts', 'src/engine/'] },
  { name: 'dialects', paths: ['src/dialects/'] },
  { name: 'agent', paths: ['src/agent/'] },
  { name: 'ways in', paths: ['src/relay/', 'src/cli/', 'src/serve/', 'src/serve.ts', 'src/sdk/', 'src/adapters/', 'src/index.ts'] },
];

const SOURCE = /\.(ts|mts|cts|tsx)$/;

/** The stage index of a repository-relative path, or -1 when it belongs to none. */
export function stageOf(rel) {
  return STAGES.findIndex((s) => s.paths.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p)));
}

function listSources(dir, root, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listSources(p, root, out);
    else if (e.isFile() && SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(toRel(root, p));
  }
  return out;
}

const toRel = (root, p) => path.relative(root, p).split(path.sep).join('/');

/** Every module specifier a file names: static imports, re-exports, `import()` and `import('x').T`. */
export function importsOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const add = (spec, typeOnly) => {
    if (spec && ts.isStringLiteralLike(spec)) found.push({ spec: spec.text, typeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The repository-relative source file a relative specifier names, or undefined outside the tree. */
function resolve(fromRel, spec, known) {
  if (!spec.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec));
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    target.replace(/\.cjs$/, '.cts'),
    target.replace(/\.jsx$/, '.tsx'),
  ];
  candidates.push(`${target}.ts`, `${target}/index.ts`);
  return candidates.find((c) => known.has(c));
}

/** Strongly connected components (Tarjan), iterative so deep graphs cannot overflow the stack. */
function components(nodes, edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let next = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const targets = [...(edges.get(top.node) ?? [])];
      if (top.i < targets.length) {
        const t = targets[top.i++];
        if (!index.has(t)) {
          index.set(t, next);
          low.set(t, next++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) low.set(top.node, Math.min(low.get(top.node), index.get(t)));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node), low.get(top.node)));
      if (low.get(top.node) === index.get(top.node)) {
        const comp = [];
        let n;
        do {
          n = stack.pop();
          onStack.delete(n);
          comp.push(n);
        } while (n !== top.node);
        out.push(comp);
      }
    }
  }
  return out;
}

/** The shortest import path from `from` to `to` inside one component (both included). */
function shortestPath(from, to, edges, inside) {
  const prev = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const n = queue.shift();
    if (n === to) break;
    for (const t of edges.get(n) ?? []) {
      if (inside.has(t) && !prev.has(t)) {
        prev.set(t, n);
        queue.push(t);
      }
    }
  }
  const route = [];
  for (let n = to; n !== undefined; n = prev.get(n)) route.unshift(n);
  return route;
}

/** Every violation under root/src, as `{ from, to, rule }`, sorted by file. */
export function check(root) {
  const files = listSources(path.join(root, 'src'), root).sort();
  const known = new Set(files);
  const edges = new Map();
  const typeOnlyEdges = new Set();
  const violations = [];
  for (const from of files) {
    const targets = new Set();
    const stage = stageOf(from);
    if (stage === -1) violations.push({ from, to: from, rule: 'belongs to no stage (add it to STAGES in scripts/layers.mjs)' });
    const valueTargets = new Set();
    for (const { spec, typeOnly } of importsOf(from, fs.readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolve(from, spec, known);
      if (!to) continue;
      targets.add(to);
      if (!typeOnly) valueTargets.add(to);
    }
    for (const to of targets) {
      if (!valueTargets.has(to)) typeOnlyEdges.add(`${from}\0${to}`);
      const target = stageOf(to);
      if (stage !== -1 && target > stage) {
        const kind = valueTargets.has(to) ? '' : ' (type-only)';
        violations.push({ from, to, rule: `layer: ${STAGES[stage].name} may not import from ${STAGES[target].name}${kind}` });
      }
    }
    edges.set(from, targets);
  }
  for (const comp of components(files, edges)) {
    const inside = new Set(comp);
    for (const from of comp) {
      for (const to of edges.get(from)) {
        if (!inside.has(to)) continue;
        const back = from === to ? [to] : shortestPath(to, from, edges, inside);
        const kind = typeOnlyEdges.has(`${from}\0${to}`) ? ' (type-only)' : '';
        violations.push({ from, to, rule: `cycle${kind}: ${[from, ...back].join(' → ')}` });
      }
    }
  }
  return violations.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.rule.localeCompare(b.rule));
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(self), '..'));
  const violations = check(root);
  for (const v of violations) process.stdout.write(`${v.from} → ${v.to}: ${v.rule}\n`);
  if (violations.length) {
    process.stderr.write(`layers: ${violations.length} violation${violations.length === 1 ? '' : 's'}\n`);
    process.exit(1);
  }
}
