// The iteration order of a java.util.HashMap<String, …> filled in a given order: Hudi 1.1 keeps file-info
// pairs and meta blocks in HashMaps, so this is the order its writer emits them. Buckets by String.hashCode
// spread (h ^ h >>> 16) over the power-of-two capacity a default-sized map grows to; insertion order within
// a bucket (maps this small never treeify).

/** Java's String.hashCode over UTF-16 code units. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** `keys` (distinct, in insertion order) in the order a java.util.HashMap iterates them. */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const buckets: string[][] = Array.from({ length: capacity }, () => []);
  for (const k of keys) {
    const h = javaStringHash(k);
    (buckets[(h ^ (h >>> 16)) & (capacity - 1)] as string[]).push(k);
  }
  return buckets.flat();
}
