/** Bounds that keep hostile or careless expressions from hanging or crashing a process. */
export interface Limits {
  /** Characters of source text. */
  readonly maxSourceLength: number;
  /** Nesting of parentheses, calls and unary operators. */
  readonly maxDepth: number;
  /** Values one reference, or all references spread into one call, may produce. */
  readonly maxListSize: number;
  /** Node evaluations plus list elements touched in one evaluation. */
  readonly maxSteps: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxSourceLength: 8192,
  maxDepth: 64,
  maxListSize: 100_000,
  maxSteps: 1_000_000,
});

export function resolveLimits(overrides: Partial<Limits> | undefined): Limits {
  return overrides === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...overrides };
}
