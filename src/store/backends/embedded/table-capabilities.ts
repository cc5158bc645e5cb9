import { AZURE_LIMITS, type Limits } from "../../../model/index.js";
import type { Capabilities } from "../../tables/table-capabilities.js";

/** What the embedded engine does: the Azure rules, keys in UTF-16 order, pages as `pages` says. */
export function embeddedCapabilities(options: {
  memory: boolean;
  limits?: Partial<Limits>;
  pages?: "fill" | "partition";
}): Capabilities {
  return Object.freeze({
    backend: "embedded",
    limits: Object.freeze({ ...AZURE_LIMITS, ...options.limits }),
    keyOrder: "utf16",
    persistent: !options.memory,
    multiProcess: !options.memory,
    pageEndsAtPartitionBoundary: options.pages === "partition",
    divergences: [],
  });
}
