import type { QueueServiceBackend } from "../queue-backend.js";
import type { Store } from "../store.js";
import type { TableQueueOptions } from "./options.js";

export function tableQueueService(_store: Store, _options: TableQueueOptions): QueueServiceBackend {
  throw new Error("not yet");
}
