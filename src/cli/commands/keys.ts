/**
 * `tablekit keys <codec> …`: what a key codec makes of given values, and back, so a key can be
 * checked by hand. Prints the codec's own `describe()`, then each value, its key, the key decoded
 * back, and the key's rank in string order.
 */
import type { Command } from "commander";
import { compareUtf16 } from "../../model/index.js";
import { CODEC_SPECS, type CodecSpec, type KeysOptions } from "../codecs/codec-specs.js";
import { jsonOption, outputOption } from "../options.js";
import { type Channel, terminal } from "../output/terminal.js";
import { writeTextTable } from "../output/text-table.js";

export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description("show the keys a codec makes (padded, ticks, inverted ticks, compound, …) and back")
    .addHelpText(
      "after",
      "\nExamples:\n  tablekit keys padded 7 42 223 --max 999999\n  tablekit keys inverted-ticks 2010-05-28T00:00:00Z now\n  tablekit keys inverted-ticks --decode 2521272959999999999\n  tablekit keys compound empid 000123\n  tablekit keys version 3 Audit",
    );
  for (const spec of CODEC_SPECS) {
    const command = keys
      .command(spec.command)
      .description(spec.summary)
      .argument("<values...>", spec.argument)
      .option("-d, --decode", "the arguments are keys: decode them")
      .addOption(outputOption(["table", "json"], "table"))
      .addOption(jsonOption());
    for (const [flags, description] of spec.options) command.option(flags, description);
    command.action((values: string[], opts: KeysOptions & { decode?: boolean; output: string }) => {
      showKeys(spec, values, opts, terminal().out);
    });
  }
}

interface KeyLine {
  value: string;
  key: string;
  decoded: string;
}

function showKeys(
  spec: CodecSpec,
  args: string[],
  opts: KeysOptions & { decode?: boolean; output: string },
  out: Channel,
) {
  const codec = spec.codec(opts);
  const lines: KeyLine[] = [];
  if (opts.decode) {
    for (const key of args) {
      const value = codec.decode(key);
      lines.push({ value: spec.show(value), key, decoded: codec.encode(value) });
    }
  } else {
    const inputs = spec.oneValue ? [args] : args.map((a) => [a]);
    for (const input of inputs) {
      const value = spec.parse(input);
      const key = codec.encode(value);
      lines.push({ value: spec.show(value), key, decoded: spec.show(codec.decode(key)) });
    }
  }
  const sorted = [...lines].sort((a, b) => compareUtf16(a.key, b.key));
  const description = codec.describe();
  if (opts.output === "json") {
    out.line(
      JSON.stringify(
        {
          codec: description.name,
          parameters: description.parameters,
          keys: lines.map((l) => ({ value: l.value, key: l.key, rank: sorted.indexOf(l) + 1 })),
        },
        (_, v) => (typeof v === "bigint" ? v.toString() : v),
      ),
    );
    return;
  }
  const params = Object.entries(description.parameters)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`)
    .join(" ");
  out.line(`${out.style.bold(description.name)}  ${params}`);
  out.line(out.style.dim(`example: ${spec.show(description.example.input)} → ${description.example.output}`));
  out.line();
  const header = opts.decode
    ? ["Key", "Value", "Encoded again", "Order"]
    : ["Value", "Key", "Decoded back", "Order"];
  const rows = lines.map((l) => {
    const rank = String(sorted.indexOf(l) + 1);
    return opts.decode ? [l.key, l.value, l.decoded, rank] : [l.value, l.key, l.decoded, rank];
  });
  writeTextTable(out, header, rows, { maxCellWidth: 80 });
}
