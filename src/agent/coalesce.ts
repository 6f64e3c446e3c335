/**
 * How streamed model text reaches AfterModel hooks (and the screen): in whole lines, never cut
 * where the provider happened to split it. A provider may send `sk-SE` and `CRET` as two deltas;
 * a hook that redacts secrets chunk by chunk would see neither as a key, so deltas are held until
 * a line is complete.
 *
 * The rule: each chunk is one line, its newline included, whatever the deltas were (so hooks see
 * the same chunks however the stream was split). A line that grows past `maxHold` characters
 * without a newline is released up to its last space or tab (whole words), and a single word
 * longer than `maxHold` is cut at `maxHold`. What is left when the response ends is the last
 * chunk.
 */
export const MAX_HOLD = 4096;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export class Coalescer {
  private held = '';

  constructor(private readonly maxHold = MAX_HOLD) {
    if (!(maxHold >= 2)) throw new RangeError('maxHold must be at least 2 characters');
  }

  /** Adds one streamed delta; returns the chunks it completes, in order (often none). */
  push(delta: string): string[] {
    this.held += delta;
    const out: string[] = [];
    for (;;) {
      const nl = this.held.indexOf('\n');
      let cut: number;
      if (nl !== -1 && nl < this.maxHold) cut = nl + 1;
      else if (this.held.length > this.maxHold) {
        // A line too long to hold: whole words from its start (the first maxHold characters have no newline).
        const space = Math.max(this.held.lastIndexOf(' ', this.maxHold - 1), this.held.lastIndexOf('\t', this.maxHold - 1));
        cut = space > 0 ? space + 1 : this.maxHold;
        // Never between the two halves of a surrogate pair.
        if (space <= 0 && isHighSurrogate(this.held.charCodeAt(cut - 1))) cut--;
      } else break;
      out.push(this.held.slice(0, cut));
      this.held = this.held.slice(cut);
    }
    return out;
  }

  /** The end of the response: what is still held, as the last chunk (none when nothing is). */
  flush(): string[] {
    const rest = this.held;
    this.held = '';
    return rest ? [rest] : [];
  }

  /** Characters held back, waiting for the end of their line. */
  get pending(): number {
    return this.held.length;
  }
}

/** The chunks hooks see for a whole stream of deltas. */
export function coalesce(deltas: Iterable<string>, maxHold = MAX_HOLD): string[] {
  const c = new Coalescer(maxHold);
  const out: string[] = [];
  for (const d of deltas) out.push(...c.push(d));
  out.push(...c.flush());
  return out;
}
