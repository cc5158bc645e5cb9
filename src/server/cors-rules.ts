import type { CorsRule, StorageServiceName, Store } from "../store/index.js";

/**
 * The CORS rules of each account's service, read through the store (`getServiceProperties`) once
 * and kept in memory: every request consults them, so none pays a store read for it. This server's
 * Set Service Properties drops the account's entry; rules set by another process sharing the store
 * apply here once this server restarts (docs/server.md).
 */
export class CorsRuleCache {
  private readonly rules = new Map<string, readonly CorsRule[]>();
  private readonly loading = new Map<string, Promise<readonly CorsRule[]>>();

  constructor(
    private readonly service: StorageServiceName,
    private readonly storeOf: (account: string) => Store,
  ) {}

  /** The rules when already known (no await on the hot path), else undefined. */
  known(account: string): readonly CorsRule[] | undefined {
    return this.rules.get(account);
  }

  /** The account's rules; none for an account this server does not serve or a store that keeps none. */
  async of(account: string): Promise<readonly CorsRule[]> {
    const known = this.rules.get(account);
    if (known) return known;
    let store: Store;
    try {
      store = this.storeOf(account);
    } catch {
      return [];
    }
    let pending = this.loading.get(account);
    if (!pending) {
      pending = this.load(store);
      this.loading.set(account, pending);
      pending.then(
        (rules) => {
          if (this.loading.get(account) === pending) {
            this.rules.set(account, rules);
            this.loading.delete(account);
          }
        },
        () => this.loading.delete(account),
      );
    }
    return pending;
  }

  private async load(store: Store): Promise<readonly CorsRule[]> {
    const state = store.stateCapabilities.serviceProperties;
    const kept =
      this.service === "table" ? state.tables : this.service === "queue" ? state.queues : state.blobs;
    if (!kept) return [];
    return Object.freeze((await store.getServiceProperties(this.service)).cors ?? []);
  }

  /** Forgets the account's rules (they were just set): the next request reads them again. */
  invalidate(account: string): void {
    this.rules.delete(account);
    this.loading.delete(account);
  }
}
