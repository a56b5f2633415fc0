import { describe, expect, it } from 'vitest';
import { KeyHeap } from '../../../src/search/key-heap.js';

describe('KeyHeap', () => {
  it('pops every key largest first, whether made from an array, pushed past its first capacity, or both', () => {
    let seed = 3;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const initial = Array.from({ length: 37 }, random);
    const pushed = Array.from({ length: 100 }, random);
    const heap = new KeyHeap(Float64Array.from(initial), initial.length);
    for (const key of pushed) heap.push(key);
    const popped: number[] = [];
    while (heap.peek() >= 0) popped.push(heap.pop());
    expect(popped).toEqual([...initial, ...pushed].sort((a, b) => b - a));
  });

  it('is empty when made without keys, or with none of its array in use: peek and pop answer -1', () => {
    expect(new KeyHeap(new Float64Array([7, 8]), 0).peek()).toBe(-1);
    const heap = new KeyHeap();
    expect(heap.peek()).toBe(-1);
    expect(heap.pop()).toBe(-1);
    heap.push(5);
    expect([heap.pop(), heap.pop()]).toEqual([5, -1]);
  });
});
