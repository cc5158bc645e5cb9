/**
 * CORS as the service's CORS documentation tabulates it: which actual requests get
 * Access-Control-Allow-Origin, Access-Control-Expose-Headers and `Vary: Origin`, by whether the
 * request has an Origin, whether rules are set, and which rule matches; an empty `<Cors/>` deletes
 * every rule, an absent one keeps them; a preflight without its required headers is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawResponse, rawRequest } from "../support/raw-table-client.js";
import { serveTables } from "../support/tablekit-server.js";

let endpoint: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ endpoint, stop } = await serveTables([]));
});
afterAll(() => stop?.());

const rule = (origins: string, methods = "GET,PUT") =>
  `<CorsRule><AllowedOrigins>${origins}</AllowedOrigins><AllowedMethods>${methods}</AllowedMethods><MaxAgeInSeconds>60</MaxAgeInSeconds><ExposedHeaders>x-ms-meta-*</ExposedHeaders><AllowedHeaders>x-ms-*</AllowedHeaders></CorsRule>`;

async function setCors(cors: string | undefined): Promise<void> {
  const body = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties>${cors ?? ""}</StorageServiceProperties>`;
  const r = await rawRequest(endpoint, { method: "PUT", path: "?restype=service&comp=properties", body });
  expect(r.status).toBe(202);
}

/** The CORS headers of an actual request: [Vary, Access-Control-Allow-Origin, Access-Control-Expose-Headers]. */
async function corsOf(origin: string | undefined, method = "GET"): Promise<(string | undefined)[]> {
  const r: RawResponse = await rawRequest(endpoint, {
    method,
    path: "?restype=service&comp=properties",
    ...(method === "PUT"
      ? { body: `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties/>` }
      : {}),
    ...(origin ? { headers: { origin } } : {}),
  });
  const h = (name: string) => r.headers[name] as string | undefined;
  return [h("vary"), h("access-control-allow-origin"), h("access-control-expose-headers")];
}

describe("tablekit serve: CORS headers of actual requests, row by row of the service's table", () => {
  it("no rules: nothing, with or without Origin", async () => {
    await setCors("<Cors/>");
    expect(await corsOf(undefined)).toEqual([undefined, undefined, undefined]);
    expect(await corsOf("http://any.example")).toEqual([undefined, undefined, undefined]);
  });

  it("rules, none for all origins: Vary for GET without Origin and for an origin no rule matches", async () => {
    await setCors(`<Cors>${rule("http://app.example")}</Cors>`);
    expect(await corsOf(undefined)).toEqual(["Origin", undefined, undefined]);
    expect(await corsOf("http://other.example")).toEqual(["Origin", undefined, undefined]);
    // An exact match: the origin, its exposed headers, and Vary.
    expect(await corsOf("http://app.example")).toEqual(["Origin", "http://app.example", "x-ms-meta-*"]);
    // Not GET/HEAD: responses are not cached, so no Vary.
    expect((await corsOf("http://other.example", "PUT"))[0]).toBeUndefined();
    expect(await corsOf("http://app.example", "PUT")).toEqual([
      undefined,
      "http://app.example",
      "x-ms-meta-*",
    ]);
  });

  it("an origin with a wildcard in its host allows its subdomains, not the domain or look-alikes", async () => {
    await setCors(`<Cors>${rule("http://*.contoso.com")}</Cors>`);
    expect((await corsOf("http://app.contoso.com"))[1]).toBe("http://app.contoso.com");
    expect((await corsOf("http://a.b.contoso.com"))[1]).toBe("http://a.b.contoso.com");
    expect((await corsOf("http://contoso.com"))[1]).toBeUndefined();
    expect((await corsOf("http://evilcontoso.com"))[1]).toBeUndefined();
    expect((await corsOf("https://app.contoso.com"))[1]).toBeUndefined();
    expect((await corsOf("http://app.contoso.com.evil.example"))[1]).toBeUndefined();
  });

  it("a rule for all origins: `*` and exposed headers without Vary, even without Origin", async () => {
    await setCors(`<Cors>${rule("*")}</Cors>`);
    expect(await corsOf(undefined)).toEqual([undefined, "*", "x-ms-meta-*"]);
    expect(await corsOf("http://any.example")).toEqual([undefined, "*", "x-ms-meta-*"]);
  });

  it("an absent Cors element keeps the rules; an empty one deletes them", async () => {
    await setCors(`<Cors>${rule("http://app.example")}</Cors>`);
    await setCors(undefined);
    const kept = await rawRequest(endpoint, { path: "?restype=service&comp=properties" });
    expect(kept.text).toContain("<AllowedOrigins>http://app.example</AllowedOrigins>");
    for (const empty of ["<Cors/>", "<Cors />", "<Cors></Cors>"]) {
      await setCors(`<Cors>${rule("http://app.example")}</Cors>`);
      await setCors(empty);
      const got = await rawRequest(endpoint, { path: "?restype=service&comp=properties" });
      expect(got.text, empty).not.toContain("<CorsRule>");
      expect(await corsOf("http://app.example")).toEqual([undefined, undefined, undefined]);
    }
  });

  it("a preflight without Origin or Access-Control-Request-Method is 400; one no rule allows is 403", async () => {
    await setCors(`<Cors>${rule("http://app.example", "GET")}</Cors>`);
    const preflight = (headers: Record<string, string>) =>
      rawRequest(endpoint, { method: "OPTIONS", path: "Tables", auth: "none", headers });
    const incomplete: Record<string, string>[] = [
      { origin: "http://app.example" },
      { "access-control-request-method": "GET" },
    ];
    for (const headers of incomplete) {
      const r = await preflight(headers);
      expect(r.status).toBe(400);
      expect(r.text).toContain("A required CORS header is not present.");
    }
    expect(
      (await preflight({ origin: "http://app.example", "access-control-request-method": "PUT" })).status,
    ).toBe(403);
    expect(
      (await preflight({ origin: "http://app.example", "access-control-request-method": "GET" })).status,
    ).toBe(200);
  });
});
