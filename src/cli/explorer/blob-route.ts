/**
 * The explorer's blob pages: GET /b (containers), GET /b/NAME?prefix= (a listing),
 * GET /b/NAME/download?name=, POST /b/NAME/upload (a file to a path, through the blob port).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ERROR_STATUS, isTableKitError, TableKitError } from "../../model/index.js";
import type { BlobContainer, ListBlobsHierarchySegment, Store } from "../../store/index.js";
import { blobsPage, containersPage } from "./blob-page.js";
import { href } from "./html.js";
import type { PageContext, RouteAnswer } from "./layout.js";
import { readUploadForm } from "./upload-form.js";

/** Items a listing shows (directories and blobs together). */
const LISTED = 200;

/** What the blob pages need of the explorer besides the store. */
export interface BlobRouteOptions {
  readonly headers: Record<string, string>;
  /** Why a form's token is refused, or undefined when it is the explorer's. */
  readonly checkToken: (given: string) => string | undefined;
  readonly maxUploadBytes: number;
}

/** An answer, "sent" when the response was written (a download), or undefined when the path is not ours. */
export async function blobRoute(
  store: Store,
  ctx: PageContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  options: BlobRouteOptions,
): Promise<RouteAnswer | "sent" | undefined> {
  if (path === "/b" && req.method === "GET") {
    const names: string[] = [];
    for await (const c of store.listContainers()) names.push(c.name);
    return { page: containersPage(ctx, names) };
  }
  const m = /^\/b\/([^/]+)(\/download|\/upload)?$/.exec(path);
  if (!m) return undefined;
  const containerName = decodeURIComponent(m[1]!);
  const container = store.container(containerName);
  if (req.method === "POST" && m[2] === "/upload") {
    const form = await readUploadForm(req, options.maxUploadBytes);
    const refused = options.checkToken(form.field("csrf"));
    if (refused) return { refused, status: 403 };
    const prefix = form.field("prefix");
    const file = form.file("file");
    // A path ending in "/" (or none) is a folder: the file keeps its own name there.
    const path = form.field("name") || prefix;
    const name = path === "" || path.endsWith("/") ? `${path}${file?.name ?? ""}` : path;
    try {
      if (!file || file.name === "") throw new TableKitError("InvalidInput", "Choose a file to upload.");
      await container
        .getBlockBlobClient(name)
        .upload(
          file.bytes,
          file.bytes.length,
          form.field("overwrite") === "1" ? {} : { conditions: { ifNoneMatch: "*" } },
        );
    } catch (err) {
      if (!isTableKitError(err)) throw err;
      const problem =
        err.code === "BlobAlreadyExists" || err.code === "ConditionNotMet"
          ? new TableKitError(
              err.code,
              `A blob named ${name} exists: tick "replace" to overwrite it. Nothing was written.`,
            )
          : err;
      return { page: await listing(prefix, { error: problem }), status: ERROR_STATUS[err.code] ?? 400 };
    }
    return {
      redirect: href(`${ctx.base}/b/${encodeURIComponent(containerName)}`, { prefix, uploaded: name }),
    };
  }
  if (req.method !== "GET") return { refused: "Method not allowed", status: 405 };
  if (m[2] === "/download")
    return download(container, url.searchParams.get("name") ?? "", res, options.headers);
  if (m[2]) return { refused: "Method not allowed", status: 405 };
  const uploaded = url.searchParams.get("uploaded");
  return { page: await listing(url.searchParams.get("prefix") ?? "", uploaded ? { uploaded } : {}) };

  async function listing(prefix: string, outcome: { uploaded?: string; error?: TableKitError }) {
    const pages = container.listBlobsByHierarchy("/", { prefix }).byPage({ maxPageSize: LISTED });
    const first: ListBlobsHierarchySegment | undefined = (await pages.next()).value;
    return blobsPage(ctx, {
      container: containerName,
      prefix,
      directories: (first?.segment.blobPrefixes ?? []).map((p) => p.name),
      blobs: (first?.segment.blobItems ?? []).map((b) => ({
        name: b.name,
        size: b.properties.contentLength,
        modified: b.properties.lastModified,
        type: b.properties.blobType,
      })),
      more: Boolean(first?.continuationToken),
      ...(outcome.uploaded ? { notice: `Uploaded ${outcome.uploaded}.` } : {}),
      ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
    });
  }
}

async function download(
  container: BlobContainer,
  name: string,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<"sent"> {
  const body = await container.getBlobClient(name).download();
  res.writeHead(200, {
    ...headers,
    "content-type": "application/octet-stream",
    "content-length": String(body.contentLength),
    "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name.split("/").pop() ?? name)}`,
  });
  for await (const chunk of body.readableStreamBody) res.write(chunk);
  res.end();
  return "sent";
}
