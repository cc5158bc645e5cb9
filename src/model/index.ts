export * from "./datetime.js";
export * from "./edm.js";
export * from "./entity.js";
export * from "./errors.js";
export * from "./limits.js";
export * from "./order.js";
export * from "./own.js";
export * from "./validate.js";
