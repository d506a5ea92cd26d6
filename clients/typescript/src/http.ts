// The client's transport: one request over fetch, with a timeout, the 429/503 retry policy and
// the mapping of error answers to the error hierarchy.
import {
  ApiError,
  RequestTimeoutError,
  TransportError,
  UnexpectedResponseError,
  errorFromResponse,
  retryAfterSeconds,
} from "./errors.js";

/** How 429 and 503 answers are retried; `retry: false` in the options turns retrying off. */
export interface RetryOptions {
  /** Extra attempts at most (default 3). */
  retries?: number;
  /** First backoff when the answer has no Retry-After, doubled per attempt, with jitter (default 500). */
  backoffMs?: number;
  /** An answer asking to wait longer than this is not retried (default 30000). */
  maxWaitMs?: number;
}

export interface TransportOptions {
  /** The server, e.g. `http://127.0.0.1:8420`. */
  baseUrl?: string;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /** The 429/503 retry policy, or `false` for none. */
  retry?: RetryOptions | false;
  /** A fetch implementation (default: the platform's). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  json?: unknown;
  body?: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
}

export const DEFAULT_URL = "http://127.0.0.1:8420";
const RETRIED = new Set([429, 503]);

/** A path segment, percent-encoded. */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
}

export class Transport {
  readonly baseUrl: string;
  private readonly key: string | undefined;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly fetchImpl: typeof fetch;

  constructor(key: string | undefined, options: TransportOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_URL).replace(/\/+$/, "");
    this.key = key;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const retry = options.retry === false ? { retries: 0 } : (options.retry ?? {});
    this.retry = { retries: retry.retries ?? 3, backoffMs: retry.backoffMs ?? 500, maxWaitMs: retry.maxWaitMs ?? 30_000 };
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The response to one request after the retries the policy allows; an error answer is thrown. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, path, options);
      if (response.ok) return response;
      const wait = this.retryWaitMs(response, attempt);
      if (wait === undefined) throw await errorFromResponse(response);
      await response.body?.cancel();
      await new Promise((done) => setTimeout(done, wait));
    }
  }

  /** The decoded JSON body of one request's response. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.request(method, path, options);
    try {
      return (await response.json()) as T;
    } catch {
      throw new UnexpectedResponseError(`${method} ${path}: the answer is not JSON`);
    }
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    if (this.key) headers.Authorization = `Bearer ${this.key}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    try {
      return await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const name = (error as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new RequestTimeoutError(`${method} ${path}: no answer from ${this.baseUrl} in time`);
      }
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      throw new TransportError(`${method} ${path}: cannot reach ${this.baseUrl}: ${reason}`);
    }
  }

  private retryWaitMs(response: Response, attempt: number): number | undefined {
    if (!RETRIED.has(response.status) || attempt >= this.retry.retries) return undefined;
    const asked = retryAfterSeconds(response.headers.get("Retry-After"));
    if (asked === undefined) {
      return Math.min(this.retry.maxWaitMs, this.retry.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2));
    }
    return asked * 1000 <= this.retry.maxWaitMs ? asked * 1000 : undefined;
  }
}
