// The key generator checks each distinct partition path once (a batch repeats few partitions): a path found safe
// is remembered, an unsafe one is refused every time it comes, and the UTF-8 length limit holds at its edge
// whatever the remembered paths (multi-byte characters near 255 bytes).
import { expect, test } from 'vitest';
import { createKeyGenerator } from '../../src/keygen/key-generator.js';
import { MAX_SEGMENT_BYTES } from '../../src/keygen/partition-path.js';
import { thrown } from '../helpers/expect-error.js';

const generator = () => createKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['id'], partitionFields: ['p'], hiveStylePartitioning: false, urlEncodePartitioning: false });

test('a safe path repeats without a new check; an unsafe one is refused each time, before and after safe ones', () => {
  const keys = generator();
  const long = 'x'.repeat(MAX_SEGMENT_BYTES + 1);
  expect(thrown(() => keys.partitionPath({ id: 1, p: long })).code).toBe('INVALID_ARGUMENT');
  for (let i = 0; i < 3; i++) expect(keys.partitionPath({ id: i, p: 'sf' })).toBe('sf');
  for (let i = 0; i < 2; i++) expect(thrown(() => keys.partitionPath({ id: 9, p: long })).context.path).toBe(long);
});

test('the byte limit counts UTF-8, not UTF-16 units: 85 three-byte characters pass, 86 do not', () => {
  const keys = generator();
  const fits = '€'.repeat(85); // 255 bytes
  expect(keys.partitionPath({ id: 1, p: fits })).toBe(fits);
  expect(thrown(() => keys.partitionPath({ id: 2, p: `${fits}€` })).message).toContain('258 bytes in UTF-8');
  const short = 'é'.repeat(127); // 254 bytes in 127 units: measured, and fits
  expect(keys.partitionPath({ id: 3, p: short })).toBe(short);
  expect(thrown(() => keys.partitionPath({ id: 4, p: `${short}é` })).message).toContain('256 bytes in UTF-8');
});
