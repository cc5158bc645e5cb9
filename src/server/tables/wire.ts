/**
 * The Azure Table wire format the server shares with the azure backend (one implementation, both
 * directions). Imported here once so a rename in src/store/azure touches one line of the server.
 */
export { valueJson } from "../../model/index.js";
export {
  AzureJsonNumber as JsonNumber,
  parseJsonWithNumberText,
} from "../../store/backends/azure/table-json-numbers.js";
