// The change queries a Table loads on first use: Hudi's CDC query (rows, a stream, Arrow) and record history,
// which is the CDC query narrowed to one key. One lazy boundary for both, so an app that never asks for
// changes bundles neither (test/bundle-size.test.ts).
export { collectChanges, commitChanges } from '../engine/read/cdc/cdc-query.js';
export { collectChangesArrow } from '../engine/read/cdc/cdc-arrow.js';
export { recordHistory } from '../engine/read/history/record-history.js';
