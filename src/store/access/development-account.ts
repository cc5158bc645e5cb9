import type { SasAccount } from "./sas-token.js";

/**
 * The Azure Storage emulators' fixed development account (public and documented; not a secret):
 * what `tablekit serve` and Azurite accept by default, and what a store opened with an access token
 * verifies it against unless told otherwise.
 */
export const DEVELOPMENT_ACCOUNT: SasAccount = Object.freeze({
  name: "devstoreaccount1",
  key: "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
});
