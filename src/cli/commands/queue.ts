/** `tablekit queue …`: the queues of a store — send, receive, peek, delete, count, and queue management. */
import { type Command, InvalidArgumentError } from "commander";
import { isTableKitError } from "../../model/index.js";
import type { PeekedMessageItem, ReceivedMessageItem } from "../../store/index.js";
import { readLines } from "../formats/lines.js";
import { openInput } from "../formats/read-input.js";
import { jsonOption, outputOption, positiveInt, usingStore, withStoreOption } from "../options.js";
import { terminal } from "../output/terminal.js";

/** A message as the CLI prints it: NDJSON with `-o json`, else `id  dequeueCount  text`. */
function printMessage(m: PeekedMessageItem | ReceivedMessageItem, output: string): void {
  const out = terminal().out;
  if (output === "json") {
    out.line(
      JSON.stringify({
        messageId: m.messageId,
        ...("popReceipt" in m ? { popReceipt: m.popReceipt } : {}),
        dequeueCount: m.dequeueCount,
        insertedOn: m.insertedOn.toISOString(),
        expiresOn: m.expiresOn.toISOString(),
        ...("nextVisibleOn" in m ? { nextVisibleOn: m.nextVisibleOn.toISOString() } : {}),
        messageText: m.messageText,
      }),
    );
  } else {
    out.line(`${m.messageId}\t${m.dequeueCount}\t${m.messageText}`);
  }
}

/** Seconds, including 0 and (for TTLs) -1. */
function seconds(text: string): number {
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`expected whole seconds, got ${text}`);
  return Number(text);
}

export function registerQueue(program: Command): void {
  const queue = program
    .command("queue")
    .description("send, receive, peek, delete and count queue messages; list, create and remove queues")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  tablekit queue create jobs",
        "  tablekit queue send jobs 'resize photo 42'",
        "  cat jobs.txt | tablekit queue send jobs          # one message per line",
        "  tablekit queue receive jobs -n 10 --delete -o json",
        "  tablekit queue count jobs",
      ].join("\n"),
    );

  withStoreOption(
    queue
      .command("list")
      .description("list the queues of the store, in name order")
      .option("--prefix <text>", "only queues whose name starts with this text")
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(async (opts: { store?: string; prefix?: string; output: string }) => {
    await usingStore(
      opts.store,
      async (store) => {
        const names: string[] = [];
        for await (const q of store.listQueues(opts.prefix === undefined ? {} : { prefix: opts.prefix }))
          names.push(q.name);
        const out = terminal().out;
        if (opts.output === "json") out.line(JSON.stringify(names));
        else for (const name of names) out.line(name);
      },
      { readOnly: true },
    );
  });

  withStoreOption(
    queue
      .command("create")
      .description("create a queue (an existing one is left as it is)")
      .argument("<name>", "queue name: 3-63 lowercase letters, digits and single hyphens"),
  ).action(async (name: string, opts: { store?: string }) => {
    await usingStore(opts.store, async (store) => {
      const { succeeded } = await store.queue(name).createIfNotExists();
      terminal().err.line(succeeded ? `created queue ${name}` : `queue ${name} already exists`);
    });
  });

  withStoreOption(
    queue
      .command("rm")
      .description("delete a queue and every message in it")
      .argument("<name>", "queue name")
      .option("--if-exists", "succeed when the queue does not exist"),
  ).action(async (name: string, opts: { store?: string; ifExists?: boolean }) => {
    await usingStore(opts.store, async (store) => {
      try {
        await store.deleteQueue(name);
        terminal().err.line(`deleted queue ${name}`);
      } catch (err) {
        if (!(opts.ifExists && isTableKitError(err, "QueueNotFound"))) throw err;
        terminal().err.line(`queue ${name} does not exist`);
      }
    });
  });

  withStoreOption(
    queue
      .command("send")
      .description("send a message, or one message per line of stdin when no text is given")
      .argument("<name>", "queue name")
      .argument("[text]", "the message text")
      .option("--visibility-timeout <seconds>", "hide the message this long first (default 0)", seconds)
      .option("--ttl <seconds>", "time-to-live (default 7 days; -1: never expires)", seconds)
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(
    async (
      name: string,
      text: string | undefined,
      opts: { store?: string; visibilityTimeout?: number; ttl?: number; output: string },
    ) => {
      await usingStore(opts.store, async (store) => {
        const q = store.queue(name);
        const send = async (message: string) => {
          const sent = await q.sendMessage(message, {
            ...(opts.visibilityTimeout === undefined ? {} : { visibilityTimeout: opts.visibilityTimeout }),
            ...(opts.ttl === undefined ? {} : { messageTimeToLive: opts.ttl }),
          });
          const out = terminal().out;
          if (opts.output === "json") {
            out.line(
              JSON.stringify({
                messageId: sent.messageId,
                popReceipt: sent.popReceipt,
                expiresOn: sent.expiresOn.toISOString(),
              }),
            );
          } else {
            out.line(sent.messageId);
          }
        };
        if (text !== undefined) {
          await send(text);
          return;
        }
        let count = 0;
        for await (const line of readLines(openInput("-"))) {
          await send(line.text);
          count++;
        }
        terminal().err.line(`sent ${count} message${count === 1 ? "" : "s"} to ${name}`);
      });
    },
  );

  withStoreOption(
    queue
      .command("receive")
      .description("take messages: invisible to other receivers for the visibility timeout, unless deleted")
      .argument("<name>", "queue name")
      .option("-n, --number <count>", "messages to take, 1-32 (default 1)", positiveInt(32))
      .option("--visibility-timeout <seconds>", "how long they stay invisible (default 30)", seconds)
      .option("--delete", "delete each message once printed (consume it)")
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(
    async (
      name: string,
      opts: { store?: string; number?: number; visibilityTimeout?: number; delete?: boolean; output: string },
    ) => {
      await usingStore(opts.store, async (store) => {
        const q = store.queue(name);
        const { receivedMessageItems } = await q.receiveMessages({
          numberOfMessages: opts.number ?? 1,
          ...(opts.visibilityTimeout === undefined ? {} : { visibilityTimeout: opts.visibilityTimeout }),
        });
        for (const m of receivedMessageItems) {
          printMessage(m, opts.output);
          if (opts.delete) await q.deleteMessage(m.messageId, m.popReceipt);
        }
      });
    },
  );

  withStoreOption(
    queue
      .command("peek")
      .description("show visible messages without taking them")
      .argument("<name>", "queue name")
      .option("-n, --number <count>", "messages to show, 1-32 (default 1)", positiveInt(32))
      .addOption(outputOption(["text", "json"], "text"))
      .addOption(jsonOption()),
  ).action(async (name: string, opts: { store?: string; number?: number; output: string }) => {
    await usingStore(
      opts.store,
      async (store) => {
        const { peekedMessageItems } = await store
          .queue(name)
          .peekMessages({ numberOfMessages: opts.number ?? 1 });
        for (const m of peekedMessageItems) printMessage(m, opts.output);
      },
      { readOnly: true },
    );
  });

  withStoreOption(
    queue
      .command("delete")
      .description("delete a received message with its pop receipt")
      .argument("<name>", "queue name")
      .argument("<messageId>", "the message's id")
      .argument("<popReceipt>", "the pop receipt of the latest receive"),
  ).action(async (name: string, messageId: string, popReceipt: string, opts: { store?: string }) => {
    await usingStore(opts.store, async (store) => {
      await store.queue(name).deleteMessage(messageId, popReceipt);
      terminal().err.line(`deleted message ${messageId} from ${name}`);
    });
  });

  withStoreOption(
    queue
      .command("count")
      .description("the approximate number of messages in a queue")
      .argument("<name>", "queue name"),
  ).action(async (name: string, opts: { store?: string }) => {
    await usingStore(
      opts.store,
      async (store) => {
        terminal().out.line(String((await store.queue(name).getProperties()).approximateMessagesCount));
      },
      { readOnly: true },
    );
  });

  withStoreOption(
    queue.command("clear").description("delete every message of a queue").argument("<name>", "queue name"),
  ).action(async (name: string, opts: { store?: string }) => {
    await usingStore(opts.store, async (store) => {
      await store.queue(name).clearMessages();
      terminal().err.line(`cleared ${name}`);
    });
  });
}
