import type { BackendConditions, BackendLeaseResult, ContentHeaders } from "../../blobs/blob-backend.js";
import type { LeaseAction, LeaseView } from "../../blobs/blob-leases.js";
import type { SdkHttpHeaders, SdkLeaseClient } from "./blob-sdk.js";

/** Content headers and leases between the port and `@azure/storage-blob`'s shapes. */

/** The port's content type and headers as the SDK's BlobHTTPHeaders. */
export function sdkHttpHeaders(
  contentType: string | undefined,
  headers: ContentHeaders | undefined,
): SdkHttpHeaders {
  const h = headers ?? {};
  return {
    ...(contentType === undefined ? {} : { blobContentType: contentType }),
    ...(h.cacheControl === undefined ? {} : { blobCacheControl: h.cacheControl }),
    ...(h.contentEncoding === undefined ? {} : { blobContentEncoding: h.contentEncoding }),
    ...(h.contentLanguage === undefined ? {} : { blobContentLanguage: h.contentLanguage }),
    ...(h.contentDisposition === undefined ? {} : { blobContentDisposition: h.contentDisposition }),
    ...(h.contentMD5 === undefined
      ? {}
      : { blobContentMD5: new Uint8Array(Buffer.from(h.contentMD5, "base64")) }),
  };
}

/** The SDK's properties as the port's content headers (undefined when none is set). */
export function contentHeadersOf(p: {
  cacheControl?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentMD5?: Uint8Array;
  blobContentMD5?: Uint8Array;
}): ContentHeaders | undefined {
  // A ranged read carries the whole blob's MD5 as blobContentMD5 (contentMD5 is then the range's).
  const md5 = p.blobContentMD5 ?? p.contentMD5;
  const out: Record<string, string> = {};
  if (p.cacheControl) out.cacheControl = p.cacheControl;
  if (p.contentEncoding) out.contentEncoding = p.contentEncoding;
  if (p.contentLanguage) out.contentLanguage = p.contentLanguage;
  if (p.contentDisposition) out.contentDisposition = p.contentDisposition;
  if (md5 && md5.byteLength > 0) out.contentMD5 = Buffer.from(md5).toString("base64");
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The SDK's lease properties as the port's view. */
export function leaseViewOf(p: {
  leaseState?: string;
  leaseStatus?: string;
  leaseDuration?: string;
}): LeaseView {
  const state = (p.leaseState ?? "available") as LeaseView["state"];
  return {
    state,
    status: p.leaseStatus === "locked" ? "locked" : "unlocked",
    ...(state === "leased" && p.leaseDuration
      ? { duration: p.leaseDuration === "infinite" ? "infinite" : "fixed" }
      : {}),
  };
}

/** Runs a lease action through the SDK's BlobLeaseClient (`lease(id)` makes one carrying that id). */
export async function sdkLease(
  lease: (id?: string) => SdkLeaseClient,
  action: LeaseAction,
  o: { abortSignal?: AbortSignal },
): Promise<BackendLeaseResult> {
  const r = await (() => {
    switch (action.action) {
      case "acquire":
        return lease(action.proposedId).acquireLease(action.duration, o);
      case "renew":
        return lease(action.id).renewLease(o);
      case "change":
        return lease(action.id).changeLease(action.proposedId, o);
      case "release":
        return lease(action.id).releaseLease(o);
      case "break":
        return lease().breakLease(action.breakPeriod ?? 0, o);
    }
  })();
  return {
    etag: r.etag ?? "",
    lastModified: r.lastModified ?? new Date(0),
    ...(action.action === "break" || r.leaseId === undefined ? {} : { leaseId: r.leaseId }),
    ...(r.leaseTime === undefined ? {} : { leaseTime: r.leaseTime }),
  };
}

/** The SDK's conditions: `tagConditions` as the expression's text. */
export function sdkConditions<C extends BackendConditions>(
  c: C,
): Omit<C, "tagConditions"> & { tagConditions?: string } {
  const { tagConditions, ...rest } = c;
  return tagConditions ? { ...rest, tagConditions: tagConditions.text } : rest;
}
