// A binary heap keyed by string with O(log n) update and delete by key (pkg/scheduler/backend/heap).

export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly keyOf: (t: T) => string, private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Inserts, or replaces the item with the same key and restores heap order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    return this.removeAt(0);
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.removeAt(i);
  }

  values(): T[] {
    return [...this.items];
  }

  private removeAt(i: number): T {
    const item = this.items[i]!;
    const last = this.items.pop()!;
    this.index.delete(this.keyOf(item));
    if (i < this.items.length) {
      this.items[i] = last;
      this.index.set(this.keyOf(last), i);
      this.fix(i);
    }
    return item;
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i0: number): boolean {
    let i = i0;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(this.items[r]!, this.items[l]!) ? r : l;
      if (!this.less(this.items[c]!, this.items[i]!)) break;
      this.swap(i, c);
      i = c;
    }
    return i > i0;
  }

  private swap(a: number, b: number): void {
    const ia = this.items[a]!, ib = this.items[b]!;
    this.items[a] = ib;
    this.items[b] = ia;
    this.index.set(this.keyOf(ib), a);
    this.index.set(this.keyOf(ia), b);
  }
}
