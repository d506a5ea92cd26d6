// Names for the wire types of src/schema.ts (generated from the server's OpenAPI document).
import type { components } from "./schema.js";

type Schemas = components["schemas"];

export type ApiKey = Schemas["ApiKey"];
export type EvidenceItem = Schemas["EvidenceItem"];
export type Fact = Schemas["Fact"];
export type FactDeleted = Schemas["FactDeleted"];
export type FactHistory = Schemas["FactHistory"];
export type Forest = Schemas["Forest"];
export type ForestDeleted = Schemas["ForestDeleted"];
export type ImportAccepted = Schemas["ImportAccepted"];
export type Job = Schemas["Job"];
export type MergeAccepted = Schemas["MergeAccepted"];
export type Message = Schemas["Message"];
export type Node = Schemas["Node"];
export type QueryFilter = Schemas["QueryFilter"];
export type QueryResult = Schemas["QueryResult"];
export type RematAccepted = Schemas["RematAccepted"];
export type RetractReport = Schemas["RetractReport"];
export type Session = Schemas["Session"];
export type SessionAccepted = Schemas["SessionAccepted"];
export type SessionSummary = Schemas["SessionSummary"];
export type Tenant = Schemas["Tenant"];
export type Tree = Schemas["Tree"];
export type Webhook = Schemas["Webhook"];
export type WebhookDelivery = Schemas["WebhookDelivery"];

/** One page of a listing; `next_cursor` fetches the next (null at the end). */
export interface Page<T> {
  items: T[];
  next_cursor?: string | null;
}

/** A session as the native JSON format writes it (`POST .../sessions`). */
export interface SessionInput {
  id: string;
  time: string;
  turns: { speaker: string; text: string; role?: string | null; id?: string | null; time?: string | null }[];
  metadata?: Record<string, unknown>;
}

/** A time: a Date or an ISO 8601 string (naive means UTC). */
export type TimeLike = Date | string;
