// Tasks of one key run one after the other, in the order they were queued; other keys' tasks run
// alongside. For steps that read the database and then act on what they read: each waits for the
// step before it to act, so that none acts on a reading older than the one before it.
export class Serial<K> {
  private readonly tails = new Map<K, Promise<void>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far has run. */
  async idle(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
