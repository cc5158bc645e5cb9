import { answerServiceProperties } from "../protocol/service-properties.js";
import type { RouteServices, TableContext } from "./route.js";

/**
 * Get and Set Table Service Properties and Get Table Service Stats (`?restype=service&comp=…`),
 * answered in XML as the service does; the shared answerer asks the core per comp, and answers
 * other comps and verbs with the service's codes.
 */
export function tableServiceProperties(
  ctx: TableContext,
  { store, access, cors }: RouteServices,
): Promise<void> {
  return answerServiceProperties(ctx, {
    service: "table",
    store,
    cors,
    check: (operation) => access?.check(operation),
  });
}
