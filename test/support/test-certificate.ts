import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A self-signed certificate for 127.0.0.1 and localhost, as PEM files and as a PFX with a password. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
  readonly pfx: string;
  readonly password: string;
  /** The certificate's PEM text, for clients to trust (`ca`). */
  readonly pem: Buffer;
  cleanup(): void;
}

/** Makes one with the `openssl` command, in a fresh temporary directory (valid for two days). */
export function makeTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "tablekit-cert-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  const pfx = join(dir, "cert.pfx");
  const password = "test-password";
  const run = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  run([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    key,
    "-out",
    cert,
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
  ]);
  run(["pkcs12", "-export", "-out", pfx, "-inkey", key, "-in", cert, "-passout", `pass:${password}`]);
  return {
    cert,
    key,
    pfx,
    password,
    pem: readFileSync(cert),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
