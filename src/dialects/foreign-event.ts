/**
 * An event name given to the wrong hook system: which systems have it, and the `--dialect` that
 * fires it there. Read only when a name is not the system's own, so the lists load only then.
 */

const SYSTEMS: ReadonlyArray<{ dialect: string; title: string; events: () => Promise<readonly string[]> }> = [
  { dialect: 'claude', title: 'Claude Code', events: async () => (await import('./claude/events.js')).CLAUDE_EVENTS },
  { dialect: 'codex', title: 'Codex', events: async () => (await import('./codex/events.js')).CODEX_EVENTS },
  {
    dialect: 'copilot',
    title: 'Copilot CLI',
    events: async () => {
      const e = await import('./copilot/events.js');
      return [...e.COPILOT_EVENTS, ...Object.keys(e.PASCAL_NAMES)];
    },
  },
  { dialect: 'spatialagent', title: 'SpatialAgent', events: async () => (await import('./spatialagent/events.js')).SA_EVENTS },
  { dialect: 'agy', title: 'Antigravity CLI (agy)', events: async () => (await import('./agy/config.js')).AGY_EVENTS },
  { dialect: 'mm', title: 'mm', events: async () => (await import('./mm/events.js')).MM_EVENTS },
];

/** `"PreToolUse" is an event of Claude Code, … — add --dialect claude (or …)`, or undefined when no other system has it. */
export async function foreignEvent(name: string, own: string): Promise<string | undefined> {
  const having: Array<{ dialect: string; title: string }> = [];
  for (const s of SYSTEMS) if ((await s.events()).includes(name)) having.push(s);
  if (!having.length) return undefined;
  const [first, ...rest] = having;
  const others = rest.length ? ` (or ${rest.map((s) => s.dialect).join(', ')})` : '';
  return `"${name}" is an event of ${having.map((s) => s.title).join(', ')}, not of ${own} — add --dialect ${first.dialect}${others}`;
}
