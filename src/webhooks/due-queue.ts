/** A min-heap of `(at, key)`: what is due soonest on top. Entries are never updated in place: a stale one is skipped by its reader. */
export class DueQueue {
  private readonly times: number[] = [];
  private readonly keys: string[] = [];

  get size(): number {
    return this.times.length;
  }

  /** Time of the soonest entry, Infinity when empty. */
  peek(): number {
    return this.times.length === 0 ? Infinity : this.times[0];
  }

  push(at: number, key: string): void {
    let i = this.times.length;
    this.times.push(at);
    this.keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent] <= at) break;
      this.move(parent, i);
      i = parent;
    }
    this.times[i] = at;
    this.keys[i] = key;
  }

  /** Removes and returns the soonest entry. */
  pop(): { at: number; key: string } | undefined {
    if (this.times.length === 0) return undefined;
    const top = { at: this.times[0], key: this.keys[0] };
    const lastAt = this.times.pop() as number;
    const lastKey = this.keys.pop() as string;
    const n = this.times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && this.times[child + 1] < this.times[child]) child++;
        if (this.times[child] >= lastAt) break;
        this.move(child, i);
        i = child;
      }
      this.times[i] = lastAt;
      this.keys[i] = lastKey;
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from];
    this.keys[to] = this.keys[from];
  }
}
