/**
 * Where the CLI writes and how it styles text. Colour only when the stream is a TTY and NO_COLOR
 * is unset (https://no-color.org), so pipes and files get plain text.
 */
import type { Writable } from "node:stream";

/** Styles for one stream; each is the identity when colour is off. */
export interface Styles {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

/** A stream with the styles that suit it. */
export interface Channel {
  readonly stream: Writable & { isTTY?: boolean; columns?: number };
  readonly isTTY: boolean;
  readonly style: Styles;
  write(text: string): void;
  line(text?: string): void;
}

const plain = (s: string) => s;
const PLAIN: Styles = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };

function sgr(open: number, close: number) {
  return (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
}

const COLOURED: Styles = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
};

/** True when colour suits a stream: a TTY, and NO_COLOR unset or empty. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

/** Wraps a stream in a Channel. */
export function channel(stream: Writable & { isTTY?: boolean; columns?: number }): Channel {
  const isTTY = stream.isTTY === true;
  return {
    stream,
    isTTY,
    style: wantsColour(stream) ? COLOURED : PLAIN,
    write: (text) => {
      stream.write(text);
    },
    line: (text = "") => {
      stream.write(`${text}\n`);
    },
  };
}

/** The process's stdout and stderr, as channels. */
export interface Terminal {
  readonly out: Channel;
  readonly err: Channel;
}

let current: Terminal | undefined;

/** The terminal of this process (created on first use). */
export function terminal(): Terminal {
  current ??= { out: channel(process.stdout), err: channel(process.stderr) };
  return current;
}

/** Removes ANSI escapes: for measuring the width of styled text. */
export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, "");
}
