/** The explorer's queue pages: GET /q (names), GET /q/NAME (peek), POST /q/NAME/send and /clear. */
import type { IncomingMessage } from "node:http";
import { isTableKitError } from "../../model/index.js";
import type { Store } from "../../store/index.js";
import type { SafeHtml } from "./html.js";
import type { PageContext, RouteAnswer } from "./layout.js";
import { queuePage, queuesPage } from "./queue-page.js";
import { readForm } from "./write-route.js";

/** Peeks at most this many messages (the service's maximum per call). */
const PEEKED = 32;

export async function queueRoute(
  store: Store,
  ctx: PageContext,
  req: IncomingMessage,
  url: URL,
  path: string,
  /** Why a form's token is refused, or undefined when it is the explorer's. */
  checkToken: (given: string | null) => string | undefined,
): Promise<RouteAnswer | undefined> {
  if (path === "/q" && req.method === "GET") {
    const names: string[] = [];
    for await (const q of store.listQueues()) names.push(q.name);
    return { page: queuesPage(ctx, names) };
  }
  const m = /^\/q\/([^/]+)(\/send|\/clear)?$/.exec(path);
  if (!m) return undefined;
  const name = decodeURIComponent(m[1]!);
  const queue = store.queue(name);
  const self = `${ctx.base}/q/${encodeURIComponent(name)}`;
  if (req.method === "POST" && m[2]) {
    const form = await readForm(req);
    const refused = checkToken(form.get("csrf"));
    if (refused) return { refused, status: 403 };
    try {
      if (m[2] === "/send") await queue.sendMessage(form.get("text") ?? "");
      else await queue.clearMessages();
    } catch (err) {
      if (!isTableKitError(err)) throw err;
      return { page: await view(err), status: 400 };
    }
    return { redirect: `${self}?done=${m[2] === "/send" ? "sent" : "cleared"}` };
  }
  if (req.method !== "GET" || m[2]) return { refused: "Method not allowed", status: 405 };
  const done = url.searchParams.get("done");
  return {
    page: await view(undefined, done === "sent" ? "Sent." : done === "cleared" ? "Cleared." : undefined),
  };

  async function view(error?: { code: string; message: string }, notice?: string): Promise<SafeHtml> {
    const [{ approximateMessagesCount }, { peekedMessageItems }] = await Promise.all([
      queue.getProperties(),
      queue.peekMessages({ numberOfMessages: PEEKED }),
    ]);
    return queuePage(ctx, {
      queue: name,
      count: approximateMessagesCount,
      messages: peekedMessageItems,
      ...(notice ? { notice } : {}),
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    });
  }
}
