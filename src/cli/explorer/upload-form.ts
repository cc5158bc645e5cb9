/**
 * A form that carries a file (multipart/form-data): the explorer's import and blob upload. The body
 * is read whole, up to a limit, and parsed by Node's own fetch `Request` (no parser of our own).
 */
import type { IncomingMessage } from "node:http";
import { TableKitError } from "../../model/index.js";

/** The largest request body an upload may send by default (the file and the form around it). */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** A file the form carried. */
export interface UploadedFile {
  /** The name the browser gave it (its base name on the user's machine). */
  readonly name: string;
  readonly bytes: Buffer;
}

/** The fields of an upload form, and its files. */
export interface UploadForm {
  field(name: string): string;
  file(name: string): UploadedFile | undefined;
}

/**
 * Reads a multipart form of at most `maxBytes`: past it RequestBodyTooLarge (the rest of the body
 * is read and dropped, so the browser, still sending, gets the answer), another content type InvalidInput.
 */
export async function readUploadForm(req: IncomingMessage, maxBytes: number): Promise<UploadForm> {
  const type = req.headers["content-type"] ?? "";
  if (!/^multipart\/form-data;/i.test(type))
    throw new TableKitError("InvalidInput", "An upload is sent as multipart/form-data.");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= maxBytes) chunks.push(chunk as Buffer);
  }
  if (size > maxBytes)
    throw new TableKitError(
      "RequestBodyTooLarge",
      `The upload is larger than ${maxBytes.toLocaleString("en-US")} bytes; nothing was written.`,
    );
  let data: FormData;
  try {
    data = await new Request("http://upload.invalid/", {
      method: "POST",
      headers: { "content-type": type },
      body: Buffer.concat(chunks),
    }).formData();
  } catch (cause) {
    throw new TableKitError("InvalidInput", "The upload is not a well-formed multipart form.", { cause });
  }
  const files = new Map<string, UploadedFile>();
  const blobs: [string, File][] = [];
  data.forEach((value, name) => {
    if (typeof value !== "string") blobs.push([name, value]);
  });
  for (const [name, value] of blobs) {
    if (!files.has(name))
      files.set(name, { name: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return {
    field: (name) => {
      const value = data.get(name);
      return typeof value === "string" ? value : "";
    },
    file: (name) => files.get(name),
  };
}
