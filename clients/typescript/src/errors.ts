// One error hierarchy: every failure of the client is a MemForestError. An error answer
// (application/problem+json) is an ApiError subclass chosen by its status, carrying the problem's
// fields; failing to reach the server is a TransportError.

/** The fields of an RFC 9457 problem+json answer. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  [field: string]: unknown;
}

export class MemForestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The server answered with an error status. */
export class ApiError extends MemForestError {
  /** The HTTP status. */
  readonly status: number;
  /** The problem type URI (`about:blank` when the body was not problem+json). */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** The whole problem object (e.g. `errors` or `location` for invalid input). */
  readonly problem: Problem;
  /** Seconds the server asked to wait before retrying (its Retry-After), when it said. */
  readonly retryAfter: number | undefined;

  constructor(status: number, problem: Problem, retryAfter: number | undefined) {
    const detail = typeof problem.detail === "string" ? problem.detail : `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.type = typeof problem.type === "string" ? problem.type : "about:blank";
    this.title = typeof problem.title === "string" ? problem.title : "";
    this.detail = detail;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** 400, 405, 415 or 422: the request was malformed or invalid. */
export class InputError extends ApiError {}
/** 401: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends ApiError {}
/** 403: the key lacks the scope. */
export class PermissionDeniedError extends ApiError {}
/** 404: no such object for this tenant. */
export class NotFoundError extends ApiError {}
/** 409: the request conflicts with stored state. */
export class ConflictError extends ApiError {}
/** 413: the body is over the server's limit. */
export class PayloadTooLargeError extends ApiError {}
/** 429: a rate or quota limit (retried by the client's retry policy before it is thrown). */
export class RateLimitedError extends ApiError {}
/** 502: the server's model backend failed. */
export class ModelBackendError extends ApiError {}
/** Any other 5xx (503: busy or not ready, retried by the policy before it is thrown). */
export class ServerError extends ApiError {}

/** The server could not be reached, or the connection broke. */
export class TransportError extends MemForestError {}
/** The server did not answer within the client's timeout. */
export class RequestTimeoutError extends TransportError {}
/** The server answered successfully, but not with what the API documents. */
export class UnexpectedResponseError extends MemForestError {}

/** waitJob gave up before the job finished; `job` is its last seen state. */
export class JobWaitTimeoutError extends MemForestError {
  readonly job: unknown;
  constructor(message: string, job: unknown) {
    super(message);
    this.job = job;
  }
}

const BY_SLUG: Record<string, new (status: number, problem: Problem, retryAfter: number | undefined) => ApiError> = {
  "invalid-input": InputError,
  "bad-request": InputError,
  "method-not-allowed": InputError,
  "unsupported-media-type": InputError,
  unauthorized: AuthenticationError,
  forbidden: PermissionDeniedError,
  "not-found": NotFoundError,
  conflict: ConflictError,
  "payload-too-large": PayloadTooLargeError,
  "too-many-requests": RateLimitedError,
  "model-backend": ModelBackendError,
  "model-output": ModelBackendError,
};

const BY_STATUS: Record<number, new (status: number, problem: Problem, retryAfter: number | undefined) => ApiError> = {
  400: InputError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: InputError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: InputError,
  422: InputError,
  429: RateLimitedError,
  502: ModelBackendError,
};

/** Seconds in a Retry-After header (delta-seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, (when - Date.now()) / 1000);
}

/** The ApiError subclass for an error response: by its problem type, else by its status. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text();
  let problem: Problem = {};
  try {
    const body: unknown = JSON.parse(text);
    if (body !== null && typeof body === "object" && !Array.isArray(body)) problem = body as Problem;
  } catch {
    // not JSON: the text becomes the detail below
  }
  if (typeof problem.detail !== "string") {
    const squeezed = text.split(/\s+/).join(" ").trim().slice(0, 300);
    problem = { ...problem, detail: squeezed || response.statusText || `HTTP ${response.status}` };
  }
  const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
  const slug = typeof problem.type === "string" ? (problem.type.split("/").pop() ?? "") : "";
  const ErrorClass =
    BY_SLUG[slug] ?? BY_STATUS[response.status] ?? (response.status >= 500 ? ServerError : InputError);
  return new ErrorClass(response.status, problem, retryAfter);
}
