import { TableKitError } from "../../model/index.js";
import type { AccessTier, RehydratePriority } from "./blob-backend.js";
import type { BlobCapabilities } from "./blob-capabilities.js";
import { type BlobTags, checkTags } from "./blob-tags.js";

/**
 * What an upload carries beside its bytes and properties: index tags and an access tier. Checked
 * once here; a backend without them refuses them (NotSupported) rather than dropping them.
 */

const TIERS: readonly AccessTier[] = ["Hot", "Cool", "Cold", "Archive"];

export function requireTags(caps: BlobCapabilities, what = "blob index tags"): void {
  if (!caps.tags)
    throw new TableKitError("NotSupported", `${caps.backend} keeps no ${what} (see docs/blobs.md)`);
}

export function requireTiers(caps: BlobCapabilities): void {
  if (!caps.accessTiers) {
    throw new TableKitError("NotSupported", `${caps.backend} has no access tiers (see docs/blobs.md)`);
  }
}

/** Hot, Cool, Cold or Archive, spelled as the service spells them; InvalidBlobTier otherwise. */
export function checkTier(tier: unknown): AccessTier {
  if (typeof tier === "string") {
    const found = TIERS.find((t) => t.toLowerCase() === tier.toLowerCase());
    if (found) return found;
  }
  throw new TableKitError(
    "InvalidBlobTier",
    `The access tier is Hot, Cool, Cold or Archive, not ${JSON.stringify(tier)}.`,
    {
      details: { tier },
    },
  );
}

export function checkRehydratePriority(priority: unknown): RehydratePriority | undefined {
  if (priority === undefined) return undefined;
  if (priority === "High" || priority === "Standard") return priority;
  throw new TableKitError(
    "InvalidBlobTier",
    `The rehydrate priority is High or Standard, not ${JSON.stringify(priority)}.`,
    {
      details: { rehydratePriority: priority },
    },
  );
}

/** An upload's `tags` and `tier`, checked, as the backend takes them. */
export function uploadAnnotations(
  options: { tags?: BlobTags; tier?: AccessTier | string },
  caps: BlobCapabilities,
  blockBlob: boolean,
): { tags?: BlobTags; tier?: AccessTier } {
  const out: { tags?: BlobTags; tier?: AccessTier } = {};
  if (options.tags !== undefined) {
    const tags = checkTags(options.tags);
    if (Object.keys(tags).length > 0) {
      requireTags(caps);
      out.tags = tags;
    }
  }
  if (options.tier !== undefined) {
    const tier = checkTier(options.tier);
    if (!blockBlob) {
      throw new TableKitError(
        "AccessTierNotSupportedForBlobType",
        "The access tier is not supported for this blob type.",
      );
    }
    requireTiers(caps);
    out.tier = tier;
  }
  return out;
}
