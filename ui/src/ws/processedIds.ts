// Remembers the ids of pushed messages already handled, so a message is handled once.
// Trimmed from over 2000 entries to the newest 1000 (spec messaging.md section 9).

export const PROCESSED_MAX = 2000;
export const PROCESSED_KEEP = 1000;

export class ProcessedIds {
  private order: string[] = [];
  private seen = new Set<string>();

  /** true when the id was seen before; otherwise records it and returns false. */
  check(id: string): boolean {
    if (this.seen.has(id)) return true;
    this.seen.add(id);
    this.order.push(id);
    if (this.order.length > PROCESSED_MAX) {
      this.order = this.order.slice(-PROCESSED_KEEP);
      this.seen = new Set(this.order);
    }
    return false;
  }

  get size(): number {
    return this.order.length;
  }

  clear(): void {
    this.order = [];
    this.seen.clear();
  }
}
