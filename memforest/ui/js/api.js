// The /v1 API with the pasted tenant key. The key lives in sessionStorage (this tab only, gone when
// it closes) and travels in the Authorization header, never in a URL.

const KEY_ITEM = "memforest.apiKey";
// the server's root: the page is served at <root>/ui/
const ROOT = location.pathname.replace(/\/ui(\/.*)?$/, "");

export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key) {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

export class ApiError extends Error {
  constructor(status, problem) {
    const detail = problem && (problem.detail || problem.title);
    super(detail ? `${status}: ${detail}` : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** Call the API: `path` starts with /v1; `params` become the query string; `body` is sent as JSON. */
export async function api(method, path, { params, body } = {}) {
  const url = new URL(ROOT + path, location.origin);
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== "" && value !== false) {
      url.searchParams.set(name, String(value));
    }
  }
  const headers = { Authorization: `Bearer ${storedKey() || ""}`, Accept: "application/json" };
  const init = { method, headers, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** A path segment. */
export const seg = encodeURIComponent;
