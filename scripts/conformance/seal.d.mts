// Types for seal.mjs, so the TypeScript conformance test can import it.
import type { ConformanceCase } from './cases.mjs';

export declare const REFERENCE_VERSION: string;
export declare const REFERENCE: string;
export declare function caseHash(c: ConformanceCase): string;
export declare function entryDigest(entry: Record<string, unknown>): string;
