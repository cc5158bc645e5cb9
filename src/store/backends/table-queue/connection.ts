/** Settings of the table-backed queue (`openStore(url, { tableQueue })`). */
export interface TableQueueOptions {
  /** The table holding every queue's catalogue entry and messages. Default `tablekitqueues`. */
  readonly table?: string;
  /**
   * How long a queue's existence, once read, is trusted before it is read again (default 1,000 ms).
   * Within this window another process's delete of the queue is not yet seen (docs/queues.md).
   */
  readonly catalogueTtlMs?: number;
}
