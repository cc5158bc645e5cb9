/**
 * Runs an @azure/storage-blob program (a fixture) as written against Azurite, or ported to
 * tablekit/storage-blob by changing only its import line and connection string.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WRITTEN_ENDPOINT = "BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;";
const CONNECTION_LINE = /^( *)"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;[^"]*";$/m;

export function blobFixture(name: string): string {
  return readFileSync(join(root, "test", "storage-blob", "fixtures", name), "utf8");
}

/** The program as written, pointed at an Azurite on another port (the connection string alone changes). */
export function blobForAzurite(source: string, blobEndpoint: string): string {
  if (!source.includes(WRITTEN_ENDPOINT)) throw new Error("fixture lacks the Azurite connection string");
  return source.replace(WRITTEN_ENDPOINT, `BlobEndpoint=${blobEndpoint};`);
}

/** The port: the import line and the connection string changed by text substitution, nothing else. */
export function blobForTablekit(source: string, storeUrl: string): string {
  return source
    .replace(/from "@azure\/storage-blob";/, 'from "tablekit/storage-blob";')
    .replace(CONNECTION_LINE, (_, indent: string) => `${indent}${JSON.stringify(storeUrl)};`);
}
