import { isTableKitError } from "../../model/index.js";
import type { Queue, ReceivedMessageItem } from "../../store/index.js";

/**
 * A received message while a worker holds it: its latest pop receipt, renewed before the
 * visibility timeout runs out (every half timeout), so a long step does not let another worker
 * take the message. Renewals, the release and the delete run one after another on the receipt.
 * When a renewal finds the message taken or gone, the lease is `lost` and the worker stops.
 */
export class MessageLease {
  private receipt: string;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  /** True once the message was found held by another receiver (or deleted): stop working on it. */
  lost = false;
  /** How many times the visibility was extended. */
  extensions = 0;

  constructor(
    private readonly queue: Queue,
    readonly message: ReceivedMessageItem,
    private readonly visibilitySeconds: number,
  ) {
    this.receipt = message.popReceipt;
    const every = Math.max(250, (visibilitySeconds * 1000) / 2);
    this.timer = setInterval(() => void this.extend(), every);
    this.timer.unref();
  }

  private run(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => {});
    return next;
  }

  private lose(err: unknown): void {
    if (!isTableKitError(err, "MessageNotFound", "PopReceiptMismatch")) throw err;
    this.lost = true;
    this.stop();
  }

  /** Pushes the visibility timeout out again from now. */
  extend(): Promise<void> {
    return this.run(async () => {
      if (this.ended || this.lost) return;
      try {
        const r = await this.queue.updateMessage(
          this.message.messageId,
          this.receipt,
          undefined,
          this.visibilitySeconds,
        );
        this.receipt = r.popReceipt;
        this.extensions++;
      } catch (err) {
        try {
          this.lose(err);
        } catch {
          // A transient failure: the next renewal tries again.
        }
      }
    });
  }

  /** Deletes the message: the transaction is done. False when the lease was lost first. */
  async delete(): Promise<boolean> {
    this.stop();
    let deleted = false;
    await this.run(async () => {
      if (this.lost) return;
      try {
        await this.queue.deleteMessage(this.message.messageId, this.receipt);
        deleted = true;
      } catch (err) {
        this.lose(err);
      }
    });
    return deleted;
  }

  /** Makes the message visible again after `delaySeconds` (0: at once) for another delivery. */
  async release(delaySeconds: number): Promise<void> {
    this.stop();
    await this.run(async () => {
      if (this.lost) return;
      try {
        await this.queue.updateMessage(this.message.messageId, this.receipt, undefined, delaySeconds);
      } catch (err) {
        this.lose(err);
      }
    });
  }

  /** Gives the message up without a word, as a crash would: it reappears when its timeout ends. */
  abandon(): void {
    this.lost = true;
    this.stop();
  }

  /** Stops the renewals (the message then reappears when its timeout ends). */
  stop(): void {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
