function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The name a misspelt one most likely meant: another agent's name for the same thing (`aliases`,
 * keyed in lower case), else the closest by edit distance when it is close enough, else one that
 * contains it or is contained in it.
 */
export function closestName<T extends string>(
  name: string,
  candidates: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): T | undefined {
  const lower = name.toLowerCase();
  // Own entries only: `constructor` or `__proto__` must not find what every object inherits.
  if (Object.hasOwn(aliases, lower)) return aliases[lower];
  let best: { name: T; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (!best || d < best.d) best = { name: c, d };
  }
  if (best && best.d <= Math.max(2, Math.floor(name.length / 4))) return best.name;
  return candidates.find((c) => lower.includes(c.toLowerCase()) || c.toLowerCase().includes(lower));
}
