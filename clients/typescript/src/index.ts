// The MemForest TypeScript client: MemForestClient (a tenant key) and MemForestAdmin (the admin key).
export { MemForestAdmin, type AdminOptions } from "./admin.js";
export {
  MemForestClient,
  queryBody,
  type AddMessagesOptions,
  type AddSessionOptions,
  type ClientOptions,
  type ListFactsOptions,
  type QueryOptions,
  type WaitOptions,
} from "./client.js";
export * from "./errors.js";
export { DEFAULT_URL, type RetryOptions, type TransportOptions } from "./http.js";
export type * from "./types.js";
export type { components, paths } from "./schema.js";
