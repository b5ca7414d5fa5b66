// The demo's one door into lakelet: the public API, plus the two pieces not exported from src/index.ts yet
// (fileListStorage, the JSON value encoding). Once they are public, only this file changes.
export * from '../src/index.js';
export { fileListStorage, type FileListEntry } from '../src/storage/file-list.js';
export { jsonRow, jsonValue } from '../src/format/json-row.js';
export type { AvroRecordSchema } from '../src/format/avro/schema.js';
