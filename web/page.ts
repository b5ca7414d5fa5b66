// The page's shared state and its error panel: `body[data-state]` says empty / loading / ready / error
// (the end-to-end tests wait on it), the status line says what happened, the panel shows a LakeletError's code.
import { isLakeletError } from '../src/index.js';

/** The element with `id`, which index.html must have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`demo: #${id} missing from index.html`);
  return el as T;
}

export type PageState = 'empty' | 'loading' | 'ready' | 'error';

/** Set the page state and (when given) the status line. */
export function setState(state: PageState, status?: string): void {
  document.body.dataset.state = state;
  if (status !== undefined) byId('status').textContent = status;
}

/** Show an error (its code, message and context) and put the page in the error state. */
export function showError(err: unknown): void {
  const code = isLakeletError(err) ? err.code : err instanceof Error ? err.name : 'Error';
  const message = err instanceof Error ? err.message : String(err);
  byId('error-code').textContent = code;
  byId('error-message').textContent = message;
  const context = isLakeletError(err) && Object.keys(err.context).length > 0 ? toJson(err.context) : '';
  const pre = byId<HTMLPreElement>('error-context');
  pre.textContent = context;
  pre.hidden = context === '';
  byId('error').hidden = false;
  setState('error');
  console.error(err);
}

/** Hide the error panel. */
export function clearError(): void {
  byId('error').hidden = true;
}

/** JSON for people: bigints as strings, Dates as ISO text, Instants as their fields, indented. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
}

/** `1 record`, `2 records`. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

let generation = 0;
/** A new generation: every open and query takes one, and drops its result when a later one started. */
export function nextGeneration(): number {
  return ++generation;
}
/** True while `g` is the latest generation. */
export function isCurrent(g: number): boolean {
  return g === generation;
}
