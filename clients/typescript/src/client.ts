// MemForestClient: every tenant operation of the HTTP API, with the names of the Python client in
// camelCase. Request options are camelCase; answers are the wire types (snake_case fields).
import { JobWaitTimeoutError, UnexpectedResponseError } from "./errors.js";
import { Transport, seg, type TransportOptions } from "./http.js";
import type {
  Fact,
  FactDeleted,
  FactHistory,
  Forest,
  ForestDeleted,
  ImportAccepted,
  Job,
  MergeAccepted,
  Message,
  Node,
  Page,
  QueryFilter,
  QueryResult,
  RematAccepted,
  RetractReport,
  Session,
  SessionAccepted,
  SessionInput,
  SessionSummary,
  TimeLike,
  Tree,
  Webhook,
  WebhookDelivery,
} from "./types.js";

export interface ClientOptions extends TransportOptions {
  /** A tenant key (`mf_...`). */
  apiKey?: string;
}

export interface QueryOptions {
  /** "emb" (default) or "llm". */
  mode?: "emb" | "llm";
  topK?: number;
  /** Answer as the memory stood at this time. */
  asOf?: TimeLike;
  timeFrom?: TimeLike;
  timeTo?: TimeLike;
  /** Tree kinds or labels to search (`session`, `entity:Alice`, ...). */
  scope?: string[];
  includeSuperseded?: boolean;
  tokenBudget?: number;
  /** Keep only evidence from matching sources: metadata, session ids, speakers. */
  filter?: QueryFilter;
}

export interface AddMessagesOptions {
  /** Seconds (0-30) to wait for the ingest job: its finished Job comes back when it ends in time. */
  wait?: number;
  sessionId?: string;
  time?: TimeLike;
  metadata?: Record<string, unknown>;
  idempotencyKey?: string;
}

export interface AddSessionOptions {
  /** Seconds to wait for the ingest job: the finished Job comes back (JobWaitTimeoutError past it). */
  wait?: number;
  idempotencyKey?: string;
}

export interface ListFactsOptions {
  kind?: string;
  entity?: string;
  session?: string;
  speaker?: string;
  validAt?: TimeLike;
  asOf?: TimeLike;
  includeSuperseded?: boolean;
  includeRetracted?: boolean;
  q?: string;
  cursor?: string;
  limit?: number;
}

export interface WaitOptions {
  /** Give up after this long (default 300000 ms). */
  timeoutMs?: number;
  /** The longest pause between polls (default 200 ms). */
  pollMs?: number;
}

function iso(value: TimeLike | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof Date ? value.toISOString() : value;
}

/** The JSON body of a query (absent options left out). */
export function queryBody(question: string, options: QueryOptions = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    query: question,
    mode: options.mode ?? "emb",
    include_superseded: options.includeSuperseded ?? false,
    top_k: options.topK,
    as_of: iso(options.asOf),
    time_from: iso(options.timeFrom),
    time_to: iso(options.timeTo),
    scope: options.scope,
    token_budget: options.tokenBudget,
    filter: options.filter,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export class MemForestClient {
  protected readonly http: Transport;

  constructor(options: ClientOptions = {}) {
    this.http = new Transport(options.apiKey, options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  // ------------------------------------------------------------ health

  health(): Promise<{ status: string }> {
    return this.http.json("GET", "/healthz");
  }

  ready(): Promise<Record<string, unknown>> {
    return this.http.json("GET", "/readyz");
  }

  // ------------------------------------------------------------ forests

  createForest(name: string): Promise<Forest> {
    return this.http.json("POST", "/v1/forests", { json: { name } });
  }

  listForests(): Promise<Page<Forest>> {
    return this.http.json("GET", "/v1/forests");
  }

  getForest(name: string): Promise<Forest> {
    return this.http.json("GET", `/v1/forests/${seg(name)}`);
  }

  /** Forget a forest and everything in it (needs the `admin` scope). */
  deleteForest(name: string): Promise<ForestDeleted> {
    return this.http.json("DELETE", `/v1/forests/${seg(name)}`);
  }

  // ------------------------------------------------------------ writing memory

  /** Store OpenAI-style chat messages as one session; with `wait` the finished Job when it ends in time. */
  async addMessages(forest: string, messages: Message[], options: AddMessagesOptions = {}): Promise<SessionAccepted | Job> {
    const json: Record<string, unknown> = { messages };
    if (options.sessionId !== undefined) json.session_id = options.sessionId;
    if (options.time !== undefined) json.time = iso(options.time);
    if (options.metadata !== undefined) json.metadata = options.metadata;
    const headers = options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : undefined;
    const response = await this.http.request("POST", `/v1/forests/${seg(forest)}/messages`, {
      json,
      headers,
      query: { wait: options.wait },
    });
    try {
      return (await response.json()) as SessionAccepted | Job;
    } catch {
      throw new UnexpectedResponseError(`POST /v1/forests/${seg(forest)}/messages: the answer is not JSON`);
    }
  }

  /** Accept one session in the native format; with `wait` (seconds) the finished ingest Job. */
  async addSession(forest: string, session: SessionInput, options: AddSessionOptions = {}): Promise<SessionAccepted | Job> {
    const headers = options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : undefined;
    const accepted = await this.http.json<SessionAccepted>("POST", `/v1/forests/${seg(forest)}/sessions`, {
      json: session,
      headers,
    });
    if (options.wait === undefined || !accepted.job_id) return accepted;
    return this.waitJob(accepted.job_id, { timeoutMs: options.wait * 1000 });
  }

  listSessions(forest: string, options: { cursor?: string; limit?: number } = {}): Promise<Page<SessionSummary>> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/sessions`, { query: { ...options } });
  }

  getSession(forest: string, sessionId: string): Promise<Session> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/sessions/${seg(sessionId)}`);
  }

  // ------------------------------------------------------------ jobs

  getJob(jobId: string): Promise<Job> {
    return this.http.json("GET", `/v1/jobs/${seg(jobId)}`);
  }

  /** Poll until the job succeeded or failed (a failed job is returned, not thrown). */
  async waitJob(jobId: string, options: WaitOptions = {}): Promise<Job> {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const pollMs = options.pollMs ?? 200;
    const deadline = Date.now() + timeoutMs;
    let delay = Math.min(50, pollMs);
    for (;;) {
      const job = await this.getJob(jobId);
      if (job.state === "succeeded" || job.state === "failed") return job;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new JobWaitTimeoutError(`job ${jobId} still ${job.state} after ${timeoutMs} ms`, job);
      await new Promise((done) => setTimeout(done, Math.min(delay, remaining)));
      delay = Math.min(delay * 2, pollMs);
    }
  }

  // ------------------------------------------------------------ reading memory

  /** Time-stamped evidence for a question, best first. */
  query(forest: string, question: string, options: QueryOptions = {}): Promise<QueryResult> {
    return this.http.json("POST", `/v1/forests/${seg(forest)}/query`, { json: queryBody(question, options) });
  }

  /** One ranked list of evidence from several forests; each item names its forest. */
  queryForests(forests: string[], question: string, options: QueryOptions = {}): Promise<QueryResult> {
    return this.http.json("POST", "/v1/query", { json: { ...queryBody(question, options), forests } });
  }

  /** One page of the forest's facts in time order, filtered. */
  listFacts(forest: string, options: ListFactsOptions = {}): Promise<Page<Fact>> {
    const query = {
      kind: options.kind,
      entity: options.entity,
      session: options.session,
      speaker: options.speaker,
      valid_at: iso(options.validAt),
      as_of: iso(options.asOf),
      include_superseded: options.includeSuperseded ? "true" : undefined,
      include_retracted: options.includeRetracted ? "true" : undefined,
      q: options.q,
      cursor: options.cursor,
      limit: options.limit,
    };
    return this.http.json("GET", `/v1/forests/${seg(forest)}/facts`, { query });
  }

  /** Every fact matching the options, page after page. */
  async *iterFacts(forest: string, options: Omit<ListFactsOptions, "cursor"> = {}): AsyncGenerator<Fact> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.listFacts(forest, { ...options, cursor });
      yield* page.items;
      if (!page.next_cursor || page.next_cursor === cursor) return;
      cursor = page.next_cursor;
    }
  }

  getFact(forest: string, factId: string): Promise<Fact> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/facts/${seg(factId)}`);
  }

  /** Every event of a fact (added, superseded, corrected, deleted, ...), oldest first. */
  factHistory(forest: string, factId: string): Promise<FactHistory> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/facts/${seg(factId)}/history`);
  }

  /** Correct a fact: the new fact (kind `correction`) supersedes it; the old one is kept. */
  correctFact(forest: string, factId: string, text: string, options: { validFrom?: TimeLike } = {}): Promise<Fact> {
    const json: Record<string, unknown> = { text };
    if (options.validFrom !== undefined) json.valid_from = iso(options.validFrom);
    return this.http.json("PATCH", `/v1/forests/${seg(forest)}/facts/${seg(factId)}`, { json });
  }

  /** Delete a fact from every tree, listing, query and export (NotFoundError the second time). */
  deleteFact(forest: string, factId: string): Promise<FactDeleted> {
    return this.http.json("DELETE", `/v1/forests/${seg(forest)}/facts/${seg(factId)}`);
  }

  listTrees(forest: string, options: { kind?: string; cursor?: string; limit?: number } = {}): Promise<Page<Tree>> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/trees`, { query: { ...options } });
  }

  getNode(forest: string, nodeId: string, options: { cursor?: string; limit?: number } = {}): Promise<Node> {
    return this.http.json("GET", `/v1/forests/${seg(forest)}/nodes/${seg(nodeId)}`, { query: { ...options } });
  }

  // ------------------------------------------------------------ lifecycle

  /** Retract a session and what only it supports. */
  retractSession(forest: string, sessionId: string): Promise<RetractReport> {
    return this.http.json("DELETE", `/v1/forests/${seg(forest)}/sessions/${seg(sessionId)}`);
  }

  retractTurn(forest: string, sessionId: string, turnId: string): Promise<RetractReport> {
    return this.http.json("DELETE", `/v1/forests/${seg(forest)}/sessions/${seg(sessionId)}/turns/${seg(turnId)}`);
  }

  mergeForest(forest: string, fromForest: string): Promise<MergeAccepted> {
    return this.http.json("POST", `/v1/forests/${seg(forest)}/merge`, { json: { from: fromForest } });
  }

  /** The forest as NDJSON records, one object per line. */
  async exportForest(forest: string, options: { withDerived?: boolean } = {}): Promise<Record<string, unknown>[]> {
    const response = await this.http.request("GET", `/v1/forests/${seg(forest)}/export`, {
      query: { with_derived: options.withDerived ? "true" : "false" },
    });
    const lines = (await response.text()).split("\n").filter((line) => line.trim());
    return lines.map((line, n) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new UnexpectedResponseError(`export line ${n + 1} is not JSON`);
      }
    });
  }

  /** Import NDJSON (records, or text as exported) into the forest; the queued job. */
  importForest(forest: string, records: Record<string, unknown>[] | string): Promise<ImportAccepted> {
    const body = typeof records === "string" ? records : records.map((r) => JSON.stringify(r) + "\n").join("");
    return this.http.json("POST", `/v1/forests/${seg(forest)}/import`, {
      body,
      headers: { "Content-Type": "application/x-ndjson" },
    });
  }

  rematerialize(
    forest: string,
    options: { embeddings?: boolean; summaries?: boolean; rebuildTrees?: boolean; k?: number } = {},
  ): Promise<RematAccepted> {
    const json: Record<string, unknown> = {
      embeddings: options.embeddings ?? false,
      summaries: options.summaries ?? false,
      rebuild_trees: options.rebuildTrees ?? false,
    };
    if (options.k !== undefined) json.k = options.k;
    return this.http.json("POST", `/v1/forests/${seg(forest)}/rematerialize`, { json });
  }

  // ------------------------------------------------------------ webhooks

  /** Register a webhook; the answer's `secret` (shown only now) verifies the signatures. */
  createWebhook(url: string, events: string[] = ["job.succeeded", "job.failed"]): Promise<Webhook> {
    return this.http.json("POST", "/v1/webhooks", { json: { url, events } });
  }

  listWebhooks(): Promise<Page<Webhook>> {
    return this.http.json("GET", "/v1/webhooks");
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.http.request("DELETE", `/v1/webhooks/${seg(webhookId)}`);
  }

  webhookDeliveries(webhookId: string, options: { limit?: number } = {}): Promise<Page<WebhookDelivery>> {
    return this.http.json("GET", `/v1/webhooks/${seg(webhookId)}/deliveries`, { query: { ...options } });
  }
}
