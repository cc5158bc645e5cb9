import { expect } from "vitest";
import type { CorsRule, StorageServiceName, Store } from "../../src/index.js";
import { expectCode } from "../support/expect-code.js";

const RULE: CorsRule = {
  allowedOrigins: "http://app.example",
  allowedMethods: "GET,PUT",
  allowedHeaders: "x-ms-meta-*,content-type",
  exposedHeaders: "x-ms-*",
  maxAgeInSeconds: 60,
};

/** Rules the services refuse (400 InvalidXmlNodeValue): each crosses one limit by one, or slips in a control character. */
export const REFUSED_CORS: readonly [string, CorsRule[]][] = [
  ["a newline in ExposedHeaders", [{ ...RULE, exposedHeaders: "x-ms-meta-a\nx-evil: 1" }]],
  ["a carriage return in AllowedHeaders", [{ ...RULE, allowedHeaders: "a\r\nb" }]],
  ["a tab in AllowedOrigins", [{ ...RULE, allowedOrigins: "http://a\t" }]],
  ["a NUL in AllowedMethods", [{ ...RULE, allowedMethods: "GET\0" }]],
  ["six rules", Array.from({ length: 6 }, () => RULE)],
  ["a method outside the documented set", [{ ...RULE, allowedMethods: "GET,TRACE" }]],
  ["a lower-case method", [{ ...RULE, allowedMethods: "get" }]],
  ["no method", [{ ...RULE, allowedMethods: "" }]],
  ["no origin", [{ ...RULE, allowedOrigins: " , " }]],
  ["a negative max age", [{ ...RULE, maxAgeInSeconds: -1 }]],
  ["a fractional max age", [{ ...RULE, maxAgeInSeconds: 1.5 }]],
  [
    "65 defined allowed headers",
    [{ ...RULE, allowedHeaders: Array.from({ length: 65 }, (_, i) => `h${i}`).join(",") }],
  ],
  ["3 prefixed exposed headers", [{ ...RULE, exposedHeaders: "a*,b*,c*" }]],
  ["a header name of 257 characters", [{ ...RULE, allowedHeaders: "h".repeat(257) }]],
  ["a header name with a colon", [{ ...RULE, exposedHeaders: "x-a:b" }]],
];

/** Service properties of `service` on `store`: defaults, round trip, merge, every refused rule writes nothing. */
export async function checkServiceProperties(store: Store, service: StorageServiceName): Promise<void> {
  const before = await store.getServiceProperties(service);
  // Every section is reported (defaults where never set; Azurite's own defaults differ from the service's).
  expect(typeof before.logging?.read).toBe("boolean");
  expect(typeof before.hourMetrics?.enabled).toBe("boolean");
  expect(Array.isArray(before.cors)).toBe(true);
  try {
    await store.setServiceProperties(service, { cors: [RULE] });
    expect((await store.getServiceProperties(service)).cors).toEqual([RULE]);
    // A section absent from a change keeps its value.
    await store.setServiceProperties(service, {
      minuteMetrics: {
        version: "1.0",
        enabled: true,
        includeAPIs: false,
        retentionPolicy: { enabled: true, days: 3 },
      },
    });
    const merged = await store.getServiceProperties(service);
    expect(merged.cors).toEqual([RULE]);
    expect(merged.minuteMetrics).toMatchObject({
      enabled: true,
      retentionPolicy: { enabled: true, days: 3 },
    });
    for (const [, cors] of REFUSED_CORS) {
      await expectCode(store.setServiceProperties(service, { cors }), "InvalidXmlNodeValue");
    }
    await expectCode(
      store.setServiceProperties(service, {
        hourMetrics: { enabled: true, includeAPIs: true, retentionPolicy: { enabled: true, days: 366 } },
      }),
      "InvalidXmlNodeValue",
    );
    // Five rules is the most, and is kept.
    await store.setServiceProperties(service, { cors: Array.from({ length: 5 }, () => RULE) });
    expect((await store.getServiceProperties(service)).cors).toHaveLength(5);
    expect((await store.getServiceProperties(service)).minuteMetrics?.enabled).toBe(true);
  } finally {
    await store.setServiceProperties(service, {
      cors: [],
      minuteMetrics: { version: "1.0", enabled: false, retentionPolicy: { enabled: false } },
    });
  }
  expect((await store.getServiceProperties(service)).cors).toEqual([]);
}
