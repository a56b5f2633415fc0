import { grown } from './grown.js';

/**
 * A label per slot (a document's workspace, its type), kept as a small number in a typed array.
 * A search's filter asks it of every title it reaches: following the document to its label string
 * and hashing that into a Set cost three cache misses per title, a seventh of a search's time in
 * the index's thread at 100,000 artifacts.
 */
export class SlotLabels {
  /** Each label's number, from 1: 0 is a slot with none. */
  readonly #numbers = new Map<string, number>();
  #bySlot: Uint32Array = new Uint32Array(0);

  set(slot: number, label: string): void {
    let number = this.#numbers.get(label);
    if (number === undefined) {
      number = this.#numbers.size + 1;
      this.#numbers.set(label, number);
    }
    if (slot >= this.#bySlot.length) this.#bySlot = grown(this.#bySlot, slot + 1);
    this.#bySlot[slot] = number;
  }

  clear(slot: number): void {
    if (slot < this.#bySlot.length) this.#bySlot[slot] = 0;
  }

  /** Whether a slot's label is one of `labels` (a slot with none never is), as the labels stand now. */
  admitting(labels: Iterable<string>): (slot: number) => boolean {
    const admitted = new Uint8Array(this.#numbers.size + 1);
    for (const label of labels) {
      const number = this.#numbers.get(label);
      if (number !== undefined) admitted[number] = 1;
    }
    const bySlot = this.#bySlot;
    return (slot) => admitted[bySlot[slot] ?? 0] === 1;
  }
}
