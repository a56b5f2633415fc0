/**
 * A max-heap of non-negative numbers in a typed array, grown as needed: the title index keeps
 * (bound, slot) pairs packed into one number in it, so ordering them compares doubles only.
 * The array can be a caller's scratch, used again by the next heap.
 */
export class KeyHeap {
  #keys: Float64Array;
  #size: number;

  /** A heap of the first `size` of `keys` (the array taken over, not copied), or an empty one. */
  constructor(keys: Float64Array = new Float64Array(16), size = 0) {
    this.#keys = keys.length > 0 ? keys : new Float64Array(16);
    this.#size = size;
    for (let i = (this.#size >> 1) - 1; i >= 0; i -= 1) this.#siftDown(i);
  }

  /** The largest key, or -1 when empty. */
  peek(): number {
    return this.#size > 0 ? this.#keys[0]! : -1;
  }

  pop(): number {
    const top = this.peek();
    if (this.#size === 0) return top;
    this.#size -= 1;
    this.#keys[0] = this.#keys[this.#size]!;
    this.#siftDown(0);
    return top;
  }

  push(key: number): void {
    if (this.#size === this.#keys.length) {
      const larger = new Float64Array(this.#size * 2);
      larger.set(this.#keys);
      this.#keys = larger;
    }
    const keys = this.#keys;
    let at = this.#size;
    this.#size += 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! >= key) break;
      keys[at] = keys[parent]!;
      at = parent;
    }
    keys[at] = key;
  }

  #siftDown(from: number): void {
    const keys = this.#keys;
    const size = this.#size;
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const larger = right < size && keys[right]! > keys[left]! ? right : left;
      if (keys[larger]! <= keys[at]!) return;
      const parent = keys[at]!;
      keys[at] = keys[larger]!;
      keys[larger] = parent;
      at = larger;
    }
  }
}
