// HoodieCompactionPlan: the fixture's plan decodes, and our encoding round-trips with the same schema.
import { expect, test } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { COMPACTION_PLAN_SCHEMA, parseCompactionPlan, serializeCompactionPlan } from '../../src/timeline/compaction-plan.js';
import { fixtureStorage } from '../helpers/fixtures.js';

test('the v8 fixture compaction plan decodes and its schema is the one we write', async () => {
  const storage = await fixtureStorage('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
  const path = '.hoodie/timeline/20251220210129235.compaction.requested';
  const bytes = await storage.read(path);
  const plan = parseCompactionPlan(bytes, path);
  expect(plan.operations.length).toBe(3);
  for (const op of plan.operations) {
    expect(op.fileId).toMatch(/-0$/);
    expect(op.partitionPath).toMatch(/^city=/);
    expect(op.dataFilePath).toMatch(/\.parquet$/);
    expect(op.baseInstantTime).toBe('20251220210108078');
  }
  expect(plan.operations.flatMap((o) => o.deltaFilePaths).every((p) => p.includes('.log.'))).toBe(true);
  expect(JSON.parse(readAvroContainer(bytes, path).metadata['avro.schema'] as string)).toEqual(COMPACTION_PLAN_SCHEMA);
  const again = parseCompactionPlan(serializeCompactionPlan(plan), 'x');
  expect(again.operations).toEqual(plan.operations);
});
