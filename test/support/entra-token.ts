/** The tenant the test tokens name (any GUID: nothing checks it against a directory). */
export const TEST_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";

/**
 * An unsigned Microsoft Entra access token for storage, as `--oauth basic` reads it (no signature
 * is checked): the storage resource as audience, the public cloud's v1 token service as issuer,
 * valid from a minute ago for an hour. Each claim can be overridden; `undefined` leaves it out;
 * the header too (`{ alg: "none" }` with an empty signature makes an unsecured token).
 */
export function entraToken(
  claims: Record<string, unknown> = {},
  signature = "c2lnbmF0dXJl",
  header: Record<string, unknown> = { alg: "RS256", typ: "JWT" },
): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const body: Record<string, unknown> = {
    aud: "https://storage.azure.com",
    iss: `https://sts.windows.net/${TEST_TENANT}/`,
    iat: now - 60,
    nbf: now - 60,
    exp: now + 3_600,
    oid: "00000000-0000-0000-0000-000000000001",
    tid: TEST_TENANT,
    ...claims,
  };
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
  return `${part(header)}.${part(body)}.${signature}`;
}
