/** Line diffs for what the user sees after a write or edit, and the snippet the model gets back. */

export type Op = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Myers' O(ND) diff; past `maxD` edits the middle is reported as one replaced block. */
export function diffLines(oldText: string, newText: string, maxD = 2000): Op[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const head: Op[] = a.slice(0, pre).map((line) => ({ kind: ' ', line }));
  const tail: Op[] = a.slice(a.length - suf).map((line) => ({ kind: ' ', line }));
  const x = a.slice(pre, a.length - suf);
  const y = b.slice(pre, b.length - suf);
  return [...head, ...myers(x, y, maxD), ...tail];
}

function myers(a: string[], b: string[], maxD: number): Op[] {
  const n = a.length;
  const m = b.length;
  const block = (): Op[] => [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  if (n === 0 || m === 0) return block();
  const off = n + m;
  const v = new Int32Array(2 * off + 2);
  const trace: Int32Array[] = [];
  const limit = Math.min(n + m, maxD);
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, off, d);
    }
  }
  return block();
}

function backtrack(trace: Int32Array[], a: string[], b: string[], off: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? k + 1 : k - 1;
    const prevX = v[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: ' ', line: a[x] });
    }
    if (x === prevX) ops.push({ kind: '+', line: b[--y] });
    else ops.push({ kind: '-', line: a[--x] });
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ kind: ' ', line: a[x] });
  }
  return ops.reverse();
}

/** A unified diff of `oldText` to `newText` with 3 lines of context. */
export function unifiedDiff(name: string, oldText: string, newText: string, oldLabel = 'Original', newLabel = 'Written'): string {
  const ops = diffLines(oldText, newText);
  const out = [`--- ${name}\t${oldLabel}`, `+++ ${name}\t${newLabel}`];
  const ctx = 3;
  let i = 0;
  let oldNo = 1;
  let newNo = 1;
  const counts: Array<[number, number]> = [];
  for (const op of ops) {
    counts.push([oldNo, newNo]);
    if (op.kind !== '+') oldNo++;
    if (op.kind !== '-') newNo++;
  }
  while (i < ops.length) {
    if (ops[i].kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - ctx);
    let end = i;
    // extend the hunk while changes are within 2*ctx lines of each other
    for (let j = i; j < ops.length; j++) {
      if (ops[j].kind !== ' ') end = j;
      else if (j - end > 2 * ctx) break;
    }
    const stop = Math.min(ops.length, end + ctx + 1);
    const hunk = ops.slice(start, stop);
    const oldLen = hunk.filter((o) => o.kind !== '+').length;
    const newLen = hunk.filter((o) => o.kind !== '-').length;
    const [o0, n0] = counts[start];
    out.push(`@@ -${oldLen ? o0 : o0 - 1},${oldLen} +${newLen ? n0 : n0 - 1},${newLen} @@`);
    for (const op of hunk) out.push(op.kind + op.line);
    i = stop;
  }
  return out.join('\n');
}

/**
 * The changed parts of `newText` with `context` lines around them, `...` between
 * distant parts; the whole text for a new file. Saves the model a re-read.
 */
export function changedSnippet(oldText: string, newText: string, context = 5): string {
  if (!oldText) return newText;
  const ops = diffLines(oldText, newText);
  const newLines = newText.split(/\r?\n/);
  const ranges: Array<[number, number]> = [];
  let n = 0;
  for (const op of ops) {
    if (op.kind === '+') {
      ranges.push([n, n + 1]);
      n++;
    } else if (op.kind === '-') ranges.push([n, n]);
    else n++;
  }
  if (ranges.length === 0) return newText;
  const merged: Array<[number, number]> = [];
  for (const [s, e] of ranges) {
    const lo = Math.max(0, s - context);
    const hi = Math.min(newLines.length, e + context);
    const last = merged[merged.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  const parts: string[] = [];
  let prevEnd = 0;
  for (const [lo, hi] of merged) {
    if (lo > prevEnd) parts.push('...');
    parts.push(newLines.slice(lo, hi).join('\n'));
    prevEnd = hi;
  }
  if (prevEnd < newLines.length) parts.push('...');
  return parts.join('\n');
}
