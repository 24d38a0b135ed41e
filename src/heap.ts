// A binary heap whose items can also leave, or move after their order changed, from anywhere in it:
// the edit scheduler's waiters (schedule.ts), where a turn must not cost a pass over every post.
// Every operation is O(log n).

export class Heap<T> {
  private readonly items: T[] = [];
  /** Each item's index in `items`. */
  private readonly at = new Map<T, number>();

  /** `before(a, b)`: a comes out first. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(item: T): boolean {
    return this.at.has(item);
  }

  /** The first item, left in. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    if (this.at.has(item)) return;
    this.items.push(item);
    this.at.set(item, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  /** Takes the first item out. */
  pop(): T | undefined {
    const first = this.items[0];
    if (first !== undefined) this.delete(first);
    return first;
  }

  /** Takes an item out wherever it is; false when it is not in. */
  delete(item: T): boolean {
    const index = this.at.get(item);
    if (index === undefined) return false;
    this.at.delete(item);
    const last = this.items.pop()!;
    if (index < this.items.length) {
      this.items[index] = last;
      this.at.set(last, index);
      this.moved(index);
    }
    return true;
  }

  /** The item's order changed: it takes its new place. */
  update(item: T): void {
    const index = this.at.get(item);
    if (index !== undefined) this.moved(index);
  }

  private moved(index: number): void {
    if (this.up(index) === index) this.down(index);
  }

  private up(index: number): number {
    const item = this.items[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(item, this.items[parent]!)) break;
      this.place(this.items[parent]!, index);
      index = parent;
    }
    this.place(item, index);
    return index;
  }

  private down(index: number): void {
    const item = this.items[index]!;
    const length = this.items.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && this.before(this.items[right]!, this.items[left]!) ? right : left;
      if (!this.before(this.items[child]!, item)) break;
      this.place(this.items[child]!, index);
      index = child;
    }
    this.place(item, index);
  }

  private place(item: T, index: number): void {
    this.items[index] = item;
    this.at.set(item, index);
  }
}
