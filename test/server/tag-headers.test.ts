import { describe, expect, it } from "vitest";
import { MAX_TAGS_HEADER, tagsHeader } from "../../src/server/blobs/tag-headers.js";
import type { RequestContext } from "../../src/server/http/request-context.js";

const ctx = (value: string) => ({ req: { headers: { "x-ms-tags": value } } }) as unknown as RequestContext;

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe("x-ms-tags", () => {
  it("reads URL-encoded pairs, + as space, an empty value, and refuses a key given twice", () => {
    expect(tagsHeader(ctx("a=1&b%20c=d+e&empty="))).toEqual({ tags: { a: "1", "b c": "d e", empty: "" } });
    expect(tagsHeader(ctx("plus=%2B"))).toEqual({ tags: { plus: "+" } });
    expect(codeOf(() => tagsHeader(ctx("a=1&a=2")))).toBe("InvalidTag");
    expect(codeOf(() => tagsHeader(ctx("a=%E0%A4%A")))).toBe("InvalidTag");
    expect(codeOf(() => tagsHeader(ctx("a=%21")))).toBe("InvalidTag");
  });

  it("holds at most 2 KiB, crossed by one", () => {
    // Ten tags of 100-character keys and 101-character values, joined: 2,029 characters, then padded
    // with spaces (+) inside the last value to reach the bound exactly.
    const tags = Array.from({ length: 10 }, (_, i) => `${i}${"k".repeat(99)}=${"v".repeat(101)}`).join("&");
    const exact = tags + "+".repeat(MAX_TAGS_HEADER - tags.length);
    expect(exact).toHaveLength(MAX_TAGS_HEADER);
    expect(Object.keys(tagsHeader(ctx(exact)).tags!)).toHaveLength(10);
    expect(codeOf(() => tagsHeader(ctx(`${exact}+`)))).toBe("TagsTooLarge");
  });
});
