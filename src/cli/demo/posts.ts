/** Seed 002: blog posts in reverse chronological order, keyed by inverted ticks of their date. */
import { invertedTicks } from "../../keys/index.js";
import { DateTime } from "../../model/index.js";
import { defineModel, field } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult, storedKeys } from "./show.js";

export const BlogPost = defineModel({
  table: "DemoPosts",
  fields: { blog: field.string(), published: field.dateTime(), title: field.string() },
  partitionKey: (k) => k.field("blog"),
  rowKey: (k) => k.field("published", invertedTicks()),
});

/** The three dates of the Chronological Query Pattern article's worked example. */
const POSTS = [
  { published: "2009-04-21T00:00:00Z", title: "Hello, Table storage" },
  { published: "2010-05-27T00:00:00Z", title: "Keys that sort by date" },
  { published: "2010-05-28T00:00:00Z", title: "Reading the newest first" },
];

export async function postsDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Reverse chronological keys: blog posts",
    "seed 002",
    "A post's RowKey is the inverted ticks of its publication date, exactly the article's worked\nexample: 2010-05-28 → 2521272959999999999. Posts come back newest first with no ORDER BY.",
  );
  const posts = BlogPost.on(store);
  await posts.ensureTable();
  for (const p of POSTS)
    await posts.create({ blog: "engineering", published: DateTime.parse(p.published), title: p.title });
  await storedKeys(out, posts.table, () => "post");
  const latest = await posts.list({ blog: "engineering" }, { limit: 2 }).toArray();
  readResult(
    out,
    "the 2 latest posts of the engineering blog",
    ["Published", "Title"],
    latest.map((p) => [p.published.toISOString(), p.title]),
  );
}
