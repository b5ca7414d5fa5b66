// memoryStorage in headless Chromium: the same shared Storage contract suite the Node project runs, to
// prove the reference adapter (and the contract file itself) has no Node-only dependency.
import { memoryStorage } from '../../src/storage/memory.js';
import { defineReadOnlyContract, defineStorageContract } from './contract.js';

defineStorageContract('memoryStorage (browser)', async () => ({ storage: memoryStorage() }));

const files = { 'x.txt': 'xray', 'nested/y.txt': 'yankee' };
defineReadOnlyContract('memoryStorage read-only (browser)', files, async () => ({
  storage: memoryStorage({ readOnly: true, files: Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)]) }),
}));
