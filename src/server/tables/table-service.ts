import { authorize } from "../auth/authorize.js";
import { storedPolicyLookup } from "../auth/stored-policies.js";
import { tableStringsToSign } from "../auth/table-shared-key.js";
import { CorsRuleCache } from "../cors-rules.js";
import { matchOperation } from "../http/operations.js";
import { withResource } from "../http/request-context.js";
import { parseTablePath } from "../http/resource.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";
import type { TableContext } from "./route.js";
import { TABLE_ROUTES, unmatchedErrorsInXml, unmatchedTableRequest } from "./table-operations.js";

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
    errorsInXml: (ctx) => {
      if (ctx === undefined) return false;
      const operation = matchOperation(TABLE_ROUTES, ctx, ctx.resource.kind);
      return operation ? operation.xml === true : unmatchedErrorsInXml(ctx);
    },
    async answer(ctx) {
      const storedPolicy = await storedPolicyLookup(
        ctx,
        accounts.get(ctx.account)?.store,
        "table",
        ctx.query.get("tn") ?? undefined,
      );
      const { store, via, access } = authorize(ctx, { ...authorizeOptions, storedPolicy });
      const operation = matchOperation(TABLE_ROUTES, ctx, ctx.resource.kind) ?? unmatchedTableRequest(ctx);
      // The core is asked before the handler reads anything; the scoped store asks it again.
      if (operation.needs) {
        const resource = ctx.resource;
        access?.check(operation.needs, "tableName" in resource ? resource.tableName : undefined);
      }
      // The Table service takes no request body past 4 MiB (a batch's limit, the largest request it
      // takes): 413 RequestBodyTooLarge, for a single entity as for a batch.
      const limit = Math.min(maxBodyBytes, store.capabilities.limits.maxTransactionBytes);
      return operation.handle(ctx, { store, via, access, cors, maxBodyBytes: limit }, undefined);
    },
  };
}
