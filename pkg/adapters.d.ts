// Types for `citemark/adapters`: `adapt` as `citemark` has it.
export { adapt } from "./index.js";
export type { Adapted, Provider } from "./index.js";
