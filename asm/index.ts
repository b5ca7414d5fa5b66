// AssemblyScript kernels over raw linear memory: Hudi's MurmurHash and bloom filter, xxHash64, dedupe keeping
// the greatest ordering value, a stable byte-order key sort, raw snappy compression and decompression. JS owns every buffer (arena
// below); no AS strings or arrays cross. Built twice; `if (ASC_FEATURE_SIMD)` picks the SIMD paths (bloom
// premix, byte compares).


export * from './memory';
export * from './bloom';
export * from './xxhash';
export * from './dedupe';
export * from './sort';
export * from './snappy';
export * from './snappy-uncompress';
