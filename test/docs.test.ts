/**
 * Every ```ts block in docs/ is a runnable example: this suite executes each one, with imports of
 * "tablekit" (and its subpaths) pointed at the sources. A block fenced ```ts no-run is skipped.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".tmp", "docs-examples");

const SUBPATHS: Record<string, string> = {
  tablekit: "src/index.ts",
  "tablekit/keys": "src/keys/index.ts",
  "tablekit/filter": "src/filter/index.ts",
  "tablekit/patterns": "src/patterns/index.ts",
  "tablekit/server": "src/server/index.ts",
  "tablekit/data-tables": "src/data-tables/index.ts",
  "tablekit/storage-queue": "src/storage-queue/index.ts",
  "tablekit/storage-blob": "src/storage-blob/index.ts",
};

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return markdownFiles(p);
    return d.name.endsWith(".md") ? [p] : [];
  });
}

/** The runnable ```ts blocks of a markdown file, with the line each starts on. */
function runnableBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(ts|typescript)(\s+.*)?$/.exec(lines[i]!.trim());
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== "```"; i++) body.push(lines[i]!);
    if (!/no-run/.test(fence[2] ?? "")) blocks.push({ line: start + 1, code: body.join("\n") });
  }
  return blocks;
}

function rewriteImports(code: string, fileDir: string): string {
  return code.replace(/from\s+"(tablekit(?:\/[a-z-]+)?)"/g, (whole, spec: string) => {
    const target = SUBPATHS[spec];
    if (!target) return whole;
    let rel = relative(fileDir, join(root, target)).replaceAll("\\", "/");
    if (!rel.startsWith(".")) rel = `./${rel}`;
    return `from "${rel}"`;
  });
}

const files = markdownFiles(join(root, "docs")).sort();
mkdirSync(outDir, { recursive: true });

describe("docs examples run", () => {
  it("finds documentation with examples", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    const blocks = runnableBlocks(readFileSync(file, "utf8"));
    const name = relative(root, file);
    blocks.forEach((block, n) => {
      it(`${name}:${block.line}`, async () => {
        const slug = name.replace(/[^A-Za-z0-9]+/g, "_");
        const path = join(outDir, `${slug}_${n}.ts`);
        writeFileSync(path, `${rewriteImports(block.code, outDir)}\nexport {};\n`);
        await import(pathToFileURL(path).href);
      });
    });
  }
});
