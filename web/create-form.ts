// The create form: a new trips table in the chosen store with its name, type (COW / MOR), record key, ordering
// field, partition fields, index type and table version (6 or 9), turned into `createTable` options.
import type { CreateTableOptions, IndexType } from '../src/index.js';
import { byId } from './page.js';
import { checkTableName } from './stores.js';
import { ORDERING_CHOICES, PARTITION_CHOICES, RECORD_KEY_CHOICES, TRIPS_SCHEMA } from './trips.js';

/** The index types a write can use (Hudi's `hoodie.index.type`), the form's choices. */
export const INDEX_CHOICES = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'RECORD_INDEX'] as const satisfies readonly IndexType[];

/** What the form asks for. */
export interface CreateRequest {
  name: string;
  options: CreateTableOptions;
  /** A write option, not a table property: the page passes it to every write of the table in this tab. */
  index: IndexType;
}

export class CreateForm {
  private readonly ui = {
    form: byId<HTMLFormElement>('create'),
    name: byId<HTMLInputElement>('create-name'),
    type: byId<HTMLSelectElement>('create-type'),
    recordKey: byId<HTMLSelectElement>('create-key'),
    ordering: byId<HTMLSelectElement>('create-ordering'),
    partitions: byId<HTMLSelectElement>('create-partitions'),
    index: byId<HTMLSelectElement>('create-index'),
    version: byId<HTMLSelectElement>('create-version'),
  };

  constructor(onCreate: (request: CreateRequest) => void) {
    const { ui } = this;
    ui.recordKey.replaceChildren(...Object.keys(RECORD_KEY_CHOICES).map((k) => new Option(k, k)));
    ui.ordering.replaceChildren(...ORDERING_CHOICES.map((o) => new Option(o || 'none (latest write wins)', o)));
    ui.partitions.replaceChildren(...Object.keys(PARTITION_CHOICES).map((p) => new Option(p || 'none', p)));
    ui.index.replaceChildren(...INDEX_CHOICES.map((i) => new Option(i, i)));
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      const request = this.request();
      if (request) onCreate(request);
    });
    ui.name.addEventListener('input', () => ui.name.setCustomValidity(''));
  }

  /** Enable or disable the whole form (a read-only store has none). */
  enable(on: boolean): void {
    for (const c of this.ui.form.elements) (c as HTMLInputElement).disabled = !on;
    this.ui.form.hidden = !on;
  }

  /** Offer a free name (`trips`, `trips_2`, …) unless the user typed their own. */
  suggestName(taken: ReadonlySet<string>): void {
    const typed = this.ui.name.value.trim();
    if (!taken.has(typed) || !/^trips(_\d+)?$/.test(typed)) return;
    let n = 2;
    while (taken.has(`trips_${n}`)) n++;
    this.ui.name.value = `trips_${n}`;
  }

  /** The request the form describes, or undefined (with the problem reported on the field). */
  request(): CreateRequest | undefined {
    const { ui } = this;
    const name = ui.name.value.trim();
    const problem = checkTableName(name);
    if (problem) {
      ui.name.setCustomValidity(problem);
      ui.name.reportValidity();
      return undefined;
    }
    const index = (INDEX_CHOICES as readonly string[]).includes(ui.index.value) ? ui.index.value as IndexType : 'BLOOM';
    const ordering = ui.ordering.value;
    const options: CreateTableOptions = {
      name,
      type: ui.type.value === 'MERGE_ON_READ' ? 'MERGE_ON_READ' : 'COPY_ON_WRITE',
      recordKey: RECORD_KEY_CHOICES[ui.recordKey.value] ?? ['uuid'],
      partitionBy: PARTITION_CHOICES[ui.partitions.value] ?? [],
      tableVersion: ui.version.value === '9' ? 9 : 6,
      schema: TRIPS_SCHEMA,
      index,
      ...(ordering ? { orderingField: ordering } : {}),
    };
    return { name, options, index };
  }
}
