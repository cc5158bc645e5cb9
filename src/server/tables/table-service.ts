import { authorize } from "../auth/authorize.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { tableStringsToSign } from "../auth/table-shared-key.js";
import { CorsRuleCache } from "../cors-rules.js";
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
  const { accounts, maxBodyBytes, oauth } = deps;
  const cors = new CorsRuleCache("table", deps.store);
  const authorizeOptions = {
    accounts,
    service: "table",
    stringsToSign: tableStringsToSign,
    ...(oauth ? { oauth } : {}),
  } as const;
  return {
    name: "Table",
    cors,
    context: (ctx) => withResource(ctx, parseTablePath(ctx.path)),
    errorsInXml: (ctx) => ctx !== undefined && (routeOf(ctx)?.xml ?? ctx.query.has("restype")),
    async answer(ctx) {
      const route = routeOf(ctx);
      const storedPolicy = await storedPolicyLookup(
        ctx,
        accounts.get(ctx.account)?.store,
        "table",
        ctx.query.get("tn") ?? undefined,
      );
      const { store, via, access } = authorize(ctx, { ...authorizeOptions, storedPolicy });
      if (!route) throw invalidUri();
      // The Table service takes no request body past 4 MiB (a batch's limit, the largest request it
      // takes): 413 RequestBodyTooLarge, for a single entity as for a batch.
      const limit = Math.min(maxBodyBytes, store.capabilities.limits.maxTransactionBytes);
      return route.handle(ctx, { store, via, access, cors, maxBodyBytes: limit });
    },
  };
}
