import { authorize } from "../auth/authorize.js";
import { tableStringsToSign } from "../auth/table-shared-key.js";
import { withResource } from "../http/request-context.js";
import { parseTablePath } from "../http/resource.js";
import { invalidUri } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import { aclRoute } from "./acl.js";
import { batchRoute } from "./batch.js";
import { entitiesRoute } from "./entities.js";
import type { Route, TableContext } from "./route.js";
import { serviceRoute } from "./service.js";
import { tablesRoute } from "./tables.js";

/** The Table protocol's routes, asked in order. */
export const TABLE_ROUTES: readonly Route[] = [
  serviceRoute,
  aclRoute,
  tablesRoute,
  batchRoute,
  entitiesRoute,
];

function routeOf(ctx: TableContext): Route | undefined {
  for (const route of TABLE_ROUTES) if (route.matches(ctx)) return route;
  return undefined;
}

/** The Table service: JSON (OData) for tables and entities, XML for its service and ACL operations. */
export function tableService(deps: ServiceDeps): StorageService<TableContext> {
  const { accounts, state, maxBodyBytes, oauth } = deps;
  const authorizeOptions = {
    accounts,
    state,
    service: "table",
    stringsToSign: tableStringsToSign,
    ...(oauth ? { oauth } : {}),
  } as const;
  return {
    name: "Table",
    state,
    context: (ctx) => withResource(ctx, parseTablePath(ctx.path)),
    errorsInXml: (ctx) => ctx !== undefined && (routeOf(ctx)?.xml ?? ctx.query.has("restype")),
    answer(ctx) {
      const route = routeOf(ctx);
      const { store, via, access } = authorize(ctx, authorizeOptions);
      if (!route) throw invalidUri();
      // The Table service takes no request body past 4 MiB (a batch's limit, the largest request it
      // takes): 413 RequestBodyTooLarge, for a single entity as for a batch.
      const limit = Math.min(maxBodyBytes, store.capabilities.limits.maxTransactionBytes);
      return route.handle(ctx, { store, via, access, state, maxBodyBytes: limit });
    },
  };
}
