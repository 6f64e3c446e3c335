// Types for cases.mjs, so the TypeScript conformance test can import it.
export interface ConformanceCase {
  name: string;
  event: string;
  /** The `hooks` block of settings. */
  settings: Record<string, unknown>;
  /** The event's own fields, with their wire names. */
  input: Record<string, unknown>;
  /** `hooksConfig.disabled`. */
  disabled?: string[];
  /** Why Hookline differs on purpose; `hooklineExpected` then replaces parts of the golden result. */
  fix?: string;
  hooklineExpected?: Record<string, unknown>;
  /** A known disagreement outside the engine core, reported but not yet fixed. */
  todo?: string;
}

export declare const cases: ConformanceCase[];
export declare function readCaptures(dir: string): Record<string, Record<string, unknown>> | undefined;
