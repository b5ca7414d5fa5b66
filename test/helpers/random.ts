// Seeded randomness for model-based tests: mulberry32, so every sequence is reproducible from its seed.

/** A small seeded PRNG with helpers. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** One element. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}
