import type { AccessOperation } from "../../store/index.js";
import type { Operation } from "../http/operations.js";
import type { Resource } from "../http/resource.js";
import { invalidUri, unsupportedVerb } from "../protocol/protocol-error.js";
import { tableAcl } from "./acl.js";
import { entityGroupTransaction } from "./batch.js";
import { queryEntities, writeEntity } from "./entities.js";
import { headerOf, type RouteServices, type TableContext } from "./route.js";
import { tableServiceProperties } from "./service.js";
import { createTable, deleteTable, getTable, queryTables } from "./tables.js";

/**
 * The Table service as a list of operations (the route recipe, src/server/http/operations.ts):
 * one entry per operation of the REST reference. `needs` names the `AccessOperation` the core
 * checks (src/store/access/access-policy.ts); the server asks it first, the scoped store's `Table`
 * asks it again with the entity's keys. `xml`: the operation's errors are written in XML.
 */
export type TableOperationRoute = Operation<
  TableContext,
  Resource["kind"],
  AccessOperation,
  RouteServices,
  unknown
> & { readonly xml?: boolean };

const READ = ["GET", "HEAD"];
/** Update and Merge Entity carry If-Match; without it the same request is an Insert Or Replace/Merge. */
const conditional = (ctx: TableContext): boolean => headerOf(ctx, "if-match") !== undefined;
const unconditional = (ctx: TableContext): boolean => !conditional(ctx);

export const TABLE_ROUTES: readonly TableOperationRoute[] = [
  // The shared answerer asks the core per comp (stats are the secondary's alone, checked first).
  {
    name: "Get Table Service Properties",
    methods: ["GET"],
    resource: "service",
    restype: "service",
    comp: "properties",
    xml: true,
    handle: tableServiceProperties,
  },
  {
    name: "Set Table Service Properties",
    methods: ["PUT"],
    resource: "service",
    restype: "service",
    comp: "properties",
    xml: true,
    handle: tableServiceProperties,
  },
  {
    name: "Get Table Service Stats",
    methods: ["GET"],
    resource: "service",
    restype: "service",
    comp: "stats",
    xml: true,
    handle: tableServiceProperties,
  },
  {
    name: "Table service, other comps and verbs (the service's 400 and 405)",
    methods: "*",
    resource: "service",
    restype: "service",
    comp: "*",
    xml: true,
    handle: tableServiceProperties,
  },
  {
    name: "Get Table ACL",
    methods: READ,
    resource: "entities",
    comp: "acl",
    xml: true,
    needs: "getAcl",
    handle: tableAcl,
  },
  {
    name: "Set Table ACL",
    methods: ["PUT"],
    resource: "entities",
    comp: "acl",
    xml: true,
    needs: "setAcl",
    handle: tableAcl,
  },
  {
    name: "Table ACL, other verbs (405, after the account-key check)",
    methods: "*",
    resource: "entities",
    comp: "acl",
    xml: true,
    handle: tableAcl,
  },
  { name: "Query Tables", methods: ["GET"], resource: "tables", needs: "listTables", handle: queryTables },
  { name: "Create Table", methods: ["POST"], resource: "tables", needs: "createTable", handle: createTable },
  // One table by name (`Tables('t')`), answered from the listing.
  {
    name: "Query Tables (one table)",
    methods: ["GET"],
    resource: "table",
    needs: "listTables",
    handle: getTable,
  },
  { name: "Delete Table", methods: ["DELETE"], resource: "table", needs: "deleteTable", handle: deleteTable },
  // The table comes from the body: the core checks each action.
  {
    name: "Entity Group Transaction",
    methods: ["POST"],
    resource: "batch",
    comp: "*",
    handle: entityGroupTransaction,
  },
  { name: "Query Entities", methods: ["GET"], resource: "entities", needs: "query", handle: queryEntities },
  {
    name: "Query Entities (one entity by its keys)",
    methods: ["GET"],
    resource: "entity",
    needs: "query",
    handle: queryEntities,
  },
  { name: "Insert Entity", methods: ["POST"], resource: "entities", needs: "insert", handle: writeEntity },
  {
    name: "Update Entity",
    methods: ["PUT"],
    resource: "entity",
    when: conditional,
    needs: "update",
    handle: writeEntity,
  },
  {
    name: "Merge Entity",
    methods: ["MERGE", "PATCH"],
    resource: "entity",
    when: conditional,
    needs: "update",
    handle: writeEntity,
  },
  {
    name: "Insert Or Replace Entity",
    methods: ["PUT"],
    resource: "entity",
    when: unconditional,
    needs: "upsert",
    handle: writeEntity,
  },
  {
    name: "Insert Or Merge Entity",
    methods: ["MERGE", "PATCH"],
    resource: "entity",
    when: unconditional,
    needs: "upsert",
    handle: writeEntity,
  },
  // Without If-Match the handler answers the service's 400 (a delete needs one).
  { name: "Delete Entity", methods: ["DELETE"], resource: "entity", needs: "delete", handle: writeEntity },
];

/** What the Table service answers a request no entry matches: 405 for a verb its resource does not take, else InvalidUri. */
export function unmatchedTableRequest(ctx: TableContext): never {
  const kind = ctx.resource.kind;
  if (kind === "batch" || (kind !== "service" && !ctx.query.has("comp"))) throw unsupportedVerb(ctx.method);
  throw invalidUri();
}

/**
 * Whether an unmatched request's error is written in XML: as its resource's operations write theirs
 * (the service's and ACLs' in XML, tables' and entities' in JSON), else when it carries `restype`.
 */
export function unmatchedErrorsInXml(ctx: TableContext): boolean {
  const kind = ctx.resource.kind;
  if (kind === "batch" || (kind !== "service" && !ctx.query.has("comp"))) return false;
  return ctx.query.has("restype");
}
