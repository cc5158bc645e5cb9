/**
 * The web explorer as a request handler: tables, partitions and entities in key order, `$filter`
 * queries with positioned errors, keys decoded, typed edits with ETag conflicts shown, the advisor,
 * exports. Mounted by `tablekit explore` (its own server) and `tablekit serve` (under /_explorer).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { adviseTable } from "../../advisor/index.js";
import { odata, parseFilter } from "../../filter/index.js";
import { ERROR_STATUS, isTableKitError } from "../../model/index.js";
import type { Model } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import { rowFromResult } from "../formats/entity-row.js";
import { advisorPage } from "./advisor-page.js";
import { EXPLORER_CSS, EXPLORER_JS } from "./assets.js";
import { blobRoute } from "./blob-route.js";
import { browsePage, tablesPage } from "./browse-page.js";
import {
  type BrowseRequest,
  browseFilter,
  countMatching,
  FIRST_PAGE,
  fillPage,
  filterWithCondition,
  importedFromQuery,
  shownRows,
} from "./browse-query.js";
import { entityPage, propertyFields } from "./entity-page.js";
import { cookieToken, hostAllowed, newAccessToken, sameToken, tokenCookie } from "./explorer-auth.js";
import { exportEntities } from "./export-route.js";
import { href, html, type SafeHtml } from "./html.js";
import { importUpload } from "./import-route.js";
import { errorBox, type PageContext, page, type RouteAnswer, storeLabel } from "./layout.js";
import { queueRoute } from "./queue-route.js";
import { MAX_UPLOAD_BYTES, readUploadForm } from "./upload-form.js";
import { readForm, writeEntity } from "./write-route.js";

export interface ExplorerOptions {
  readonly store: Store;
  /** Path prefix ("" for a server of its own; "/_explorer" under `tablekit serve`). */
  readonly base?: string;
  /** Allow writes (entities, tables, imports, messages, uploads); read-only refuses every POST. */
  readonly writable: boolean;
  /** The largest upload (import file or blob, with its form) in bytes; default 64 MiB. */
  readonly maxUploadBytes?: number;
  /** The access token; default a new random one. */
  readonly token?: string;
  /** Models whose keys the explorer decodes, and whose index copies the advisor checks. */
  // biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields.
  readonly models?: readonly Model<any, any, any, any, any>[];
  /** Served on loopback: requests must name a loopback Host. */
  readonly loopbackOnly: boolean;
}

/** A mounted explorer: its path prefix, token, and request handler. */
export interface Explorer {
  readonly prefix: string;
  readonly token: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

const PAGE_SIZE = 50;
const READ_ONLY = "This explorer is read-only (start it with --write).";
const PARTITIONS_SHOWN = 25;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

export function createExplorer(options: ExplorerOptions): Explorer {
  const base = options.base ?? "";
  const token = options.token ?? newAccessToken();
  // Models apply to their own table only: each page of a table gets that table's.
  const baseCtx: PageContext = {
    base,
    storeLabel: storeLabel(options.store.url),
    writable: options.writable,
    csrf: token,
    models: [],
  };
  const store = options.store;

  const send = (
    res: ServerResponse,
    status: number,
    body: SafeHtml | string,
    type = "text/html; charset=utf-8",
  ) => {
    res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
    res.end(String(body));
  };
  const reply = (res: ServerResponse, answer: RouteAnswer) => {
    if ("redirect" in answer) {
      res.writeHead(303, { ...SECURITY_HEADERS, location: answer.redirect });
      return void res.end();
    }
    if ("refused" in answer) return send(res, answer.status, answer.refused, "text/plain");
    send(res, answer.status ?? 200, answer.page);
  };
  /** Why a form's token is refused, or undefined when it is this explorer's. */
  const checkToken = (given: string | null | undefined) =>
    sameToken(given, token) ? undefined : "The form's token is missing or wrong.";
  const maxUploadBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  const failPage = (res: ServerResponse, err: unknown) => {
    if (!isTableKitError(err))
      return send(
        res,
        500,
        page(baseCtx, "Error", errorBox("Error", String((err as Error)?.message ?? err))),
      );
    send(res, ERROR_STATUS[err.code] ?? 400, page(baseCtx, err.code, errorBox(err.code, err.message)));
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
    if (req.method === "GET" && path === "/assets/explorer.css")
      return send(res, 200, EXPLORER_CSS, "text/css; charset=utf-8");
    if (req.method === "GET" && path === "/assets/explorer.js")
      return send(res, 200, EXPLORER_JS, "text/javascript; charset=utf-8");
    if (req.method === "GET" && (path === "/" || path === "")) {
      return send(res, 200, tablesPage(baseCtx, await tableNames()));
    }
    // Every POST writes: a read-only explorer refuses them all here, before any route reads a form.
    if (req.method === "POST" && !options.writable) {
      req.resume();
      return send(res, 403, READ_ONLY, "text/plain");
    }
    if (req.method === "POST" && (path === "/tables" || /^\/t\/[^/]+\/delete$/.test(path))) {
      const form = await readForm(req);
      if (checkToken(form.get("csrf"))) return send(res, 403, checkToken(form.get("csrf"))!, "text/plain");
      return tableChange(res, path, form);
    }
    if (path === "/b" || path.startsWith("/b/")) {
      const answer = await blobRoute(store, baseCtx, req, res, url, path, {
        headers: SECURITY_HEADERS,
        checkToken,
        maxUploadBytes,
      });
      if (answer === "sent") return;
      if (answer) return reply(res, answer);
    }
    if (path === "/q" || path.startsWith("/q/")) {
      const answer = await queueRoute(store, baseCtx, req, url, path, checkToken);
      if (answer) return reply(res, answer);
    }
    const m = /^\/t\/([^/]+)(\/e|\/new|\/advise|\/export|\/import)?$/.exec(path);
    if (!m) return send(res, 404, page(baseCtx, "Not found", errorBox("NotFound", `No page at ${path}`)));
    const tableName = decodeURIComponent(m[1]!);
    const table = store.table(tableName);
    const models = (options.models ?? []).filter(
      (model) => model.compiled.table.toLowerCase() === tableName.toLowerCase(),
    );
    const ctx = { ...baseCtx, models: models.map((model) => model.compiled) };
    const q = (name: string) => url.searchParams.get(name) ?? "";
    if (req.method === "POST" && m[2] === "/import") {
      const form = await readUploadForm(req, maxUploadBytes);
      const refused = checkToken(form.field("csrf"));
      if (refused) return send(res, 403, refused, "text/plain");
      const outcome = await importUpload(store, tableName, form);
      if (outcome.error)
        return send(
          res,
          ERROR_STATUS[outcome.error.code] ?? 400,
          await browse(ctx, tableName, { ...FIRST_PAGE, imported: outcome }),
        );
      const { file, entities, check } = outcome;
      return reply(res, {
        redirect: href(`${base}/t/${encodeURIComponent(tableName)}`, {
          imported: String(entities),
          file,
          ...(check ? { check: "1" } : {}),
        }),
      });
    }
    if (req.method === "POST" && m[2] === "/e") {
      const form = await readForm(req);
      const refused = checkToken(form.get("csrf"));
      if (refused) return send(res, 403, refused, "text/plain");
      const outcome = await writeEntity(table, form);
      if (outcome.ok) {
        const to = outcome.deleted
          ? `${base}/t/${encodeURIComponent(tableName)}?pk=${encodeURIComponent(outcome.partitionKey)}`
          : `${base}/t/${encodeURIComponent(tableName)}/e?pk=${encodeURIComponent(outcome.partitionKey)}&rk=${encodeURIComponent(outcome.rowKey)}&saved=1`;
        res.writeHead(303, { ...SECURITY_HEADERS, location: to });
        return void res.end();
      }
      return send(res, outcome.status, entityPage(ctx, { table: tableName, ...outcome.view }));
    }
    if (req.method !== "GET") return send(res, 405, "Method not allowed", "text/plain");
    switch (m[2]) {
      case "/e": {
        const entity = await table.getEntity(q("pk"), q("rk"));
        const row = rowFromResult(entity);
        return send(
          res,
          200,
          entityPage(ctx, {
            table: tableName,
            existing: {
              partitionKey: row.partitionKey,
              rowKey: row.rowKey,
              etag: entity.etag,
              ...(row.timestamp ? { timestamp: row.timestamp } : {}),
            },
            partitionKey: row.partitionKey,
            rowKey: row.rowKey,
            properties: propertyFields(row.properties),
            ...(q("saved") ? { notice: "Saved." } : {}),
          }),
        );
      }
      case "/new":
        if (!options.writable) return send(res, 403, READ_ONLY, "text/plain");
        return send(
          res,
          200,
          entityPage(ctx, { table: tableName, partitionKey: q("pk"), rowKey: "", properties: [] }),
        );
      case "/advise":
        return send(
          res,
          200,
          advisorPage(ctx, await adviseTable(store, tableName, { models, maxEntities: 100_000 })),
        );
      case "/export":
        return exportEntities(
          res,
          table,
          browseFilter(q("pk"), q("filter")),
          q("format") === "csv" ? "csv" : "ndjson",
          SECURITY_HEADERS,
        );
      default:
        if (q("add-prop")) return addCondition(res, tableName, url);
        return send(
          res,
          200,
          await browse(ctx, tableName, {
            partition: q("pk"),
            filter: q("filter"),
            pageToken: q("page"),
            trail: q("trail"),
            after: q("after"),
            count: q("count") === "1",
            builderError: q("add-error"),
            internal: q("internal") === "1",
            ...(q("imported") ? { imported: importedFromQuery(url) } : {}),
          }),
        );
    }
  }

  /** The query builder's form, added to the $filter (or refused with why): back to the table. */
  function addCondition(res: ServerResponse, tableName: string, url: URL): void {
    const { filter, problem } = filterWithCondition(url.searchParams);
    const to = href(`${base}/t/${encodeURIComponent(tableName)}`, {
      pk: url.searchParams.get("pk") ?? "",
      filter,
      ...(problem ? { "add-error": problem } : {}),
    });
    res.writeHead(303, { ...SECURITY_HEADERS, location: to });
    res.end();
  }

  async function tableNames(): Promise<string[]> {
    const names: string[] = [];
    for await (const t of store.listTables()) names.push(t.name);
    return names;
  }

  /** Creates (POST /tables) or deletes (POST /t/NAME/delete, its name typed again) a table. */
  async function tableChange(res: ServerResponse, path: string, form: URLSearchParams): Promise<void> {
    const deleting = path.startsWith("/t/");
    const name = deleting
      ? decodeURIComponent(path.slice(3, -"/delete".length))
      : (form.get("name") ?? "").trim();
    try {
      if (!deleting) await store.createTable(name, { failIfExists: true });
      else if (form.get("confirm") !== name)
        return send(
          res,
          400,
          tablesPage(baseCtx, await tableNames(), {
            code: "InvalidInput",
            message: `Type ${name} to delete it; nothing was deleted.`,
          }),
        );
      else await store.deleteTable(name, { failIfMissing: true });
    } catch (err) {
      if (!isTableKitError(err)) throw err;
      return send(res, ERROR_STATUS[err.code] ?? 400, tablesPage(baseCtx, await tableNames(), err));
    }
    res.writeHead(303, {
      ...SECURITY_HEADERS,
      location: deleting ? `${base}/` : `${base}/t/${encodeURIComponent(name)}`,
    });
    res.end();
  }

  async function browse(ctx: PageContext, tableName: string, request: BrowseRequest): Promise<SafeHtml> {
    const { partition, filter, pageToken, trail, after } = request;
    const table = store.table(tableName);
    const partitions: string[] = [];
    let last = after;
    let more: string | undefined;
    for (let i = 0; i <= PARTITIONS_SHOWN; i++) {
      const pages = table
        .listEntities({
          queryOptions: {
            select: ["PartitionKey"],
            ...(i === 0 && last === "" ? {} : { filter: odata`PartitionKey gt ${last}` }),
          },
        })
        .byPage({ maxPageSize: 1 });
      const first = (await pages.next()).value?.[0]?.partitionKey;
      await pages.return?.(undefined);
      if (first === undefined) break;
      if (i === PARTITIONS_SHOWN) more = last;
      else partitions.push(first);
      last = first;
    }
    const view = {
      table: tableName,
      filter,
      partition,
      pageToken: pageToken || undefined,
      trail,
      partitions,
      morePartitionsAfter: more,
      builderError: request.builderError,
      ...(request.imported ? { imported: request.imported } : {}),
    };
    try {
      if (filter.trim() !== "") parseFilter(filter); // positions relative to what the user typed
      const query = browseFilter(partition, filter);
      const shown = await fillPage(table, query, pageToken || undefined, PAGE_SIZE);
      return browsePage(ctx, {
        ...view,
        ...(await shownRows(
          table,
          shown.entities,
          request,
          filter.trim() !== "" && !pageToken ? query : undefined,
        )),
        nextToken: shown.nextToken,
        ...(request.count ? { count: await countMatching(table, browseFilter(partition, filter)) } : {}),
      });
    } catch (err) {
      if (!isTableKitError(err) || !["InvalidFilter", "InvalidContinuationToken"].includes(err.code))
        throw err;
      return browsePage(ctx, {
        ...view,
        rows: [],
        nextToken: undefined,
        error: {
          code: err.code,
          message: err.message,
          ...(err.position === undefined ? {} : { position: err.position }),
        },
      });
    }
  }

  return {
    prefix: base,
    token,
    async handle(req, res) {
      try {
        const url = new URL(req.url ?? "/", "http://explorer.invalid");
        if (!url.pathname.startsWith(base)) return send(res, 404, "Not found", "text/plain");
        if (!hostAllowed(req, options.loopbackOnly))
          return send(res, 403, "This explorer answers on loopback names only.", "text/plain");
        const path = url.pathname.slice(base.length);
        const given = url.searchParams.get("token");
        if (given !== null) {
          if (!sameToken(given, token)) return send(res, 401, unauthorized(), "text/html; charset=utf-8");
          url.searchParams.delete("token");
          res.writeHead(303, {
            ...SECURITY_HEADERS,
            "set-cookie": tokenCookie(token, base),
            location: `${url.pathname}${url.search}`,
          });
          return void res.end();
        }
        if (!sameToken(cookieToken(req), token)) return send(res, 401, unauthorized());
        await route(req, res, url, path);
      } catch (err) {
        if (res.headersSent) res.destroy();
        else failPage(res, err);
      }
    },
  };
}

function unauthorized(): SafeHtml {
  return html`<!doctype html><title>tablekit explorer</title><p>Open the explorer with the URL <code>tablekit explore</code> printed: it carries the access token.</p>`;
}
