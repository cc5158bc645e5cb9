/** The explorer's blob pages: GET /b (containers), GET /b/NAME?prefix= (a listing), GET /b/NAME/download?name=. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ListBlobsHierarchySegment, Store } from "../../store/index.js";
import { blobsPage, containersPage } from "./blob-page.js";
import type { SafeHtml } from "./html.js";
import type { PageContext } from "./layout.js";

/** Items a listing shows (directories and blobs together). */
const LISTED = 200;

/** A page to send, or undefined when the response was written (a download) or the path is not ours. */
export async function blobRoute(
  store: Store,
  ctx: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  headers: Record<string, string>,
): Promise<SafeHtml | "sent" | undefined> {
  if (req.method !== "GET") return undefined;
  if (path === "/b") {
    const names: string[] = [];
    for await (const c of store.listContainers()) names.push(c.name);
    return containersPage(ctx, names);
  }
  const m = /^\/b\/([^/]+)(\/download)?$/.exec(path);
  if (!m) return undefined;
  const container = store.container(decodeURIComponent(m[1]!));
  if (m[2]) {
    const name = url.searchParams.get("name") ?? "";
    const download = await container.getBlobClient(name).download();
    res.writeHead(200, {
      ...headers,
      "content-type": "application/octet-stream",
      "content-length": String(download.contentLength),
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name.split("/").pop() ?? name)}`,
    });
    for await (const chunk of download.readableStreamBody) res.write(chunk);
    res.end();
    return "sent";
  }
  const prefix = url.searchParams.get("prefix") ?? "";
  const pages = container.listBlobsByHierarchy("/", { prefix }).byPage({ maxPageSize: LISTED });
  const first: ListBlobsHierarchySegment | undefined = (await pages.next()).value;
  return blobsPage(ctx, {
    container: decodeURIComponent(m[1]!),
    prefix,
    directories: (first?.segment.blobPrefixes ?? []).map((p) => p.name),
    blobs: (first?.segment.blobItems ?? []).map((b) => ({
      name: b.name,
      size: b.properties.contentLength,
      modified: b.properties.lastModified,
      type: b.properties.blobType,
    })),
    more: Boolean(first?.continuationToken),
  });
}
