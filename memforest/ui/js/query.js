// The query box (mode, top-k, as-of): the evidence with scores, temporal roles, validity and cited
// turns (opened from the session), and the stage timings.

import { api, seg } from "./api.js";
import { fill, h, interval, loading, notice, when } from "./dom.js";

export function queryView(root, ctx) {
  const input = h("input", { testid: "query-input", placeholder: "Ask the memory…", size: 60, required: true });
  const mode = h("select", { testid: "query-mode" }, h("option", { value: "emb" }, "emb"), h("option", { value: "llm" }, "llm"));
  const topK = h("input", { type: "number", min: 1, max: 100, value: "10", size: 4, testid: "query-top-k" });
  const asOf = h("input", { type: "datetime-local", testid: "query-as-of" });
  const out = h("div", { class: "answer" });
  const run = async () => {
    fill(out, loading("Querying"));
    const body = { query: input.value, mode: mode.value, top_k: Number(topK.value) || undefined };
    if (asOf.value) body.as_of = `${asOf.value}:00Z`;
    try {
      showAnswer(out, ctx, await api("POST", `/v1/forests/${seg(ctx.forest)}/query`, { body }));
    } catch (err) {
      fill(out, notice(err.message));
    }
  };
  fill(
    root,
    h("form", { class: "query", onsubmit: (e) => { e.preventDefault(); run(); } },
      input, h("label", {}, " mode ", mode), h("label", {}, " top-k ", topK), h("label", {}, " as of (UTC) ", asOf),
      h("button", { type: "submit", testid: "query-submit" }, "Ask")),
    out,
  );
}

function showAnswer(out, ctx, result) {
  const timings = Object.entries(result.timings_ms || {}).map(([stage, ms]) => h("tr", {}, h("td", {}, stage), h("td", { class: "num" }, ms.toFixed(1))));
  const evidence = result.evidence.map((e) => evidenceItem(e, ctx));
  fill(
    out,
    h("p", { class: "muted", testid: "query-meta" },
      `mode ${result.mode_used}`, result.strategy ? ` · ${result.strategy}` : "", result.temporal ? ` · temporal: ${result.temporal}` : "",
      result.time_cues ? ` · time cues: ${result.time_cues}` : "", result.fallback ? ` · fallback: ${result.fallback}` : ""),
    h("div", { class: "split" },
      h("ol", { class: "evidence", testid: "evidence-list" }, evidence.length ? evidence : h("li", { class: "muted" }, "No evidence.")),
      h("aside", {}, h("h3", {}, "Stage timings (ms)"), h("table", { testid: "query-timings" }, h("tbody", {}, timings)))),
  );
}

function evidenceItem(e, ctx) {
  const turns = h("div", { class: "detail", hidden: true });
  const cite = async () => {
    turns.hidden = !turns.hidden;
    if (turns.hidden || !e.session_id) return;
    fill(turns, loading());
    try {
      const s = await api("GET", `/v1/forests/${seg(ctx.forest)}/sessions/${seg(e.session_id)}`);
      const cited = new Set(e.turn_ids);
      const shown = s.turns.filter((t, i) => cited.has(t.id) || cited.has(`${e.session_id}#${i}`));
      fill(turns, h("ol", { class: "turns", testid: "cited-turns" }, shown.map((t) => h("li", {}, h("b", {}, `${t.speaker}: `), t.text))));
    } catch (err) {
      fill(turns, notice(err.message));
    }
  };
  return h(
    "li", { testid: "evidence-item", class: e.superseded ? "superseded" : "" },
    h("div", { class: "line" },
      h("span", { class: "score", testid: "evidence-score" }, e.score.toFixed(3)),
      h("span", { class: "badge" }, e.kind),
      e.temporal_role ? h("span", { class: "badge role", testid: "evidence-role" }, e.temporal_role) : null,
      h("span", { class: "text" }, e.text)),
    h("div", { class: "meta" },
      e.kind === "fact" ? h("span", { class: "validity" }, interval(e.valid_from, e.valid_to)) : h("span", {}, when(e.time)),
      h("span", { class: "muted" }, e.tree),
      e.session_id ? h("button", { class: "link", testid: "evidence-turns", onclick: cite }, `session ${e.session_id}, turns ${e.turn_ids.join(", ")}`) : null),
    turns,
  );
}
