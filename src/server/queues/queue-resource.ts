import { invalidUri } from "../protocol/protocol-error.js";

/** What a Queue service path names, after the account. */
export type QueueResource =
  | { readonly kind: "service" }
  | { readonly kind: "queue"; readonly queueName: string }
  | { readonly kind: "messages"; readonly queueName: string }
  | { readonly kind: "message"; readonly queueName: string; readonly messageId: string };

/** `""`, `q`, `q/messages`, `q/messages/<id>`; anything else is InvalidUri. */
export function parseQueuePath(path: string): QueueResource {
  if (path === "") return { kind: "service" };
  const parts = path.split("/");
  const queueName = parts[0]!;
  if (parts.length === 1 || (parts.length === 2 && parts[1] === "")) return { kind: "queue", queueName };
  if (parts[1] !== "messages" || parts.length > 3) throw invalidUri();
  if (parts.length === 2 || parts[2] === "") return { kind: "messages", queueName };
  return { kind: "message", queueName, messageId: parts[2]! };
}
