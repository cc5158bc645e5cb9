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
  // The service reads a backslash in a blob's name as a slash (as URL parsers do): `a\b` is `a/b`.
  return { kind: "blob", container: path.slice(0, slash), blob: path.slice(slash + 1).replaceAll("\\", "/") };
}
