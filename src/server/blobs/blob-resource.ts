/** What a Blob service path names, after the account: the service, a container, or a blob (its name may hold `/`). */
export type BlobResource =
  | { readonly kind: "service" }
  | { readonly kind: "container"; readonly container: string }
  | { readonly kind: "blob"; readonly container: string; readonly blob: string };

export function parseBlobPath(path: string): BlobResource {
  if (path === "") return { kind: "service" };
  const slash = path.indexOf("/");
  if (slash < 0 || slash === path.length - 1) {
    return { kind: "container", container: slash < 0 ? path : path.slice(0, slash) };
  }
  return { kind: "blob", container: path.slice(0, slash), blob: path.slice(slash + 1) };
}
