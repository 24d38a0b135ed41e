import { describe, expect, it } from 'vitest';
import { Heap } from '../src/heap.js';

/** A small seeded generator (mulberry32): the same operations on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('Heap', () => {
  it('gives items out in order through pushes, pops, deletes and changed keys (against a sorted list)', () => {
    const next = random(7);
    const heap = new Heap<{ key: number; id: number }>(
      (a, b) => a.key < b.key || (a.key === b.key && a.id < b.id),
    );
    const inside: { key: number; id: number }[] = [];
    const first = () => [...inside].sort((a, b) => a.key - b.key || a.id - b.id)[0];
    for (let step = 0; step < 5_000; step++) {
      const op = next();
      if (op < 0.4 || inside.length === 0) {
        const item = { key: Math.floor(next() * 100), id: step };
        heap.push(item);
        inside.push(item);
      } else if (op < 0.6) {
        expect(heap.pop()).toBe(first());
        inside.splice(inside.indexOf(first()!), 1);
      } else if (op < 0.8) {
        const item = inside.splice(Math.floor(next() * inside.length), 1)[0]!;
        expect(heap.delete(item)).toBe(true);
        expect(heap.delete(item)).toBe(false);
      } else {
        const item = inside[Math.floor(next() * inside.length)]!;
        item.key = Math.floor(next() * 100);
        heap.update(item);
      }
      expect(heap.size).toBe(inside.length);
      expect(heap.peek()).toBe(first());
    }
  });

  it('takes an item once, however often it is pushed', () => {
    const heap = new Heap<number>((a, b) => a < b);
    heap.push(3);
    heap.push(3);
    heap.push(1);
    expect([heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 3, undefined]);
  });
});
