/**
 * Reference counts on index files (Lucene's IndexFileDeleter): the last commit and every open
 * snapshot hold references to the files they use, and a file is deleted only when its count drops
 * to zero — so neither a running query nor the commit point ever loses a file.
 */
export class FileRefs {
  private readonly counts = new Map<string, number>();

  constructor(private readonly deleteFile: (name: string) => void) {}

  incRef(names: Iterable<string>): void {
    for (const n of names) this.counts.set(n, (this.counts.get(n) ?? 0) + 1);
  }

  decRef(names: Iterable<string>): void {
    for (const n of names) {
      const c = this.counts.get(n);
      if (c === undefined) continue;
      if (c > 1) this.counts.set(n, c - 1);
      else {
        this.counts.delete(n);
        this.deleteFile(n);
      }
    }
  }

  /** Whether any holder references the file. */
  has(name: string): boolean {
    return this.counts.has(name);
  }
}
