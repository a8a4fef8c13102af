/**
 * A promise-chain mutex: serialises the writer's state changes (apply a batch, refresh, commit,
 * install a merge) while letting slow I/O such as WAL fsyncs run outside it.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier holder has finished; resolves with its result. */
  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    try {
      await previous;
      return await fn();
    } finally {
      release();
    }
  }
}
