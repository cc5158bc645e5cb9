import { it } from "vitest";

/**
 * A test that runs only where `supported` holds for the target (table, queue or blob capabilities); elsewhere it is reported as
 * skipped with `reason`. Capabilities are known only once the backend is open, hence the runtime
 * skip; suites branch on capabilities (and what the target offers), never on a backend's name.
 */
export function itWhen<Target extends { readonly capabilities: unknown }>(
  target: () => Target,
  supported: (capabilities: Target["capabilities"], target: Target) => boolean,
  reason: string,
  name: string,
  fn: () => Promise<void>,
  timeout?: number,
): void {
  it(
    name,
    async (ctx) => {
      if (!supported(target().capabilities, target())) ctx.skip(reason);
      await fn();
    },
    timeout,
  );
}
