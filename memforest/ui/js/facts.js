// A forest's facts: filters (speaker, session, time window, current only, text), each fact with its
// validity interval, kind, entities and supersession links; opened, its source turns and chain, and
// with a write key the correct and delete controls.

import { api, seg } from "./api.js";
import { confirmBox, dayStart, fill, h, interval, loading, notice, when } from "./dom.js";

const PAGE = 50;

export function factsView(root, ctx) {
  const field = (name, attrs = {}) => h("input", { name, testid: `filter-${name}`, ...attrs });
  const speaker = field("speaker", { placeholder: "any speaker", size: 12 });
  const session = field("session", { placeholder: "any session", size: 12 });
  const from = field("from", { type: "date" });
  const to = field("to", { type: "date" });
  const q = field("q", { placeholder: "text", size: 14 });
  const current = field("current", { type: "checkbox", checked: true });
  const list = h("div", { class: "facts", testid: "fact-list" });
  const state = { filters: null };
  const apply = () => {
    state.filters = {
      speaker: speaker.value.trim(), session: session.value.trim(), q: q.value.trim(),
      valid_from: dayStart(from.value), valid_to: dayStart(to.value), include_superseded: !current.checked,
    };
    loadFacts(list, ctx, state.filters, null);
  };
  const form = h(
    "form", { class: "filters", onsubmit: (e) => { e.preventDefault(); apply(); } },
    h("label", {}, "Speaker ", speaker), h("label", {}, "Session ", session),
    h("label", {}, "Valid from ", from), h("label", {}, "to ", to), h("label", {}, "Text ", q),
    h("label", {}, current, " current only"),
    h("button", { type: "submit", testid: "filter-apply" }, "Apply"),
  );
  fill(root, form, list);
  if (ctx.arg) session.value = ctx.arg;
  apply();
}

async function loadFacts(list, ctx, filters, cursor) {
  if (!cursor) fill(list, loading("Loading facts"));
  let page;
  try {
    page = await api("GET", `/v1/forests/${seg(ctx.forest)}/facts`, { params: { ...filters, cursor, limit: PAGE } });
  } catch (err) {
    fill(list, notice(err.message));
    return;
  }
  if (!cursor) fill(list);
  list.querySelector(".more")?.remove();
  if (!cursor && !page.items.length) list.append(h("p", { class: "muted", testid: "no-facts" }, "No facts match."));
  for (const fact of page.items) list.append(factRow(fact, ctx, () => loadFacts(list, ctx, filters, null)));
  if (page.next_cursor) {
    list.append(h("button", { class: "more", testid: "facts-more", onclick: () => loadFacts(list, ctx, filters, page.next_cursor) }, "More facts"));
  }
}

function factRow(fact, ctx, reload) {
  const detail = h("div", { class: "detail", hidden: true });
  const toggle = () => {
    detail.hidden = !detail.hidden;
    if (!detail.hidden) loadDetail(detail, fact.id, ctx, reload);
  };
  const entities = fact.entities.map((e) =>
    h("a", { class: "chip", href: `#/f/${encodeURIComponent(ctx.forest)}/entities/${encodeURIComponent(e)}`, testid: "fact-entity" }, e),
  );
  return h(
    "article", { class: `fact ${fact.status}`, testid: "fact-row", "data-fact-id": fact.id, "data-status": fact.status },
    h(
      "div", { class: "line", onclick: toggle },
      h("span", { class: "text", testid: "fact-text" }, fact.text),
      h("span", { class: "badge" }, fact.kind),
      fact.status !== "current" ? h("span", { class: `badge ${fact.status}`, testid: "fact-status" }, fact.status) : null,
    ),
    h(
      "div", { class: "meta" },
      h("span", { class: "validity", testid: "fact-validity", title: "valid from, valid to" }, interval(fact.valid_from, fact.valid_to)),
      fact.time_text ? h("span", { class: "muted" }, `“${fact.time_text}”`) : null,
      fact.speaker ? h("span", {}, `said by ${fact.speaker}`) : null,
      entities,
      fact.supersedes ? h("span", { class: "muted" }, `supersedes #${fact.supersedes}`) : null,
      fact.superseded_by ? h("span", { class: "muted" }, `superseded by #${fact.superseded_by}`) : null,
    ),
    detail,
  );
}

async function loadDetail(detail, id, ctx, reload) {
  fill(detail, loading());
  let fact;
  try {
    fact = await api("GET", `/v1/forests/${seg(ctx.forest)}/facts/${seg(id)}`);
  } catch (err) {
    fill(detail, notice(err.message));
    return;
  }
  const sources = (fact.provenance || []).map((p) =>
    h(
      "li", { testid: "fact-source" },
      h("div", { class: "muted" }, `session ${p.session_id} · ${when(p.time)} · turns ${p.turn_ids.join(", ")}`),
      h("pre", { class: "turns" }, p.snippet),
    ),
  );
  const chain = (fact.supersession_chain || []).map((c) =>
    h(
      "li", { testid: "chain-link", class: c.is_requested ? "requested" : "", "data-fact-id": c.id },
      h("span", {}, c.text), " ", h("span", { class: "validity" }, interval(c.valid_from, c.valid_to)),
      c.retracted_at ? h("span", { class: "badge retracted" }, "retracted") : null,
    ),
  );
  const trees = (fact.placements || []).map((p) => h("span", { class: "chip" }, `${p.tree_kind}: ${p.tree_label}`));
  fill(
    detail,
    h("h3", {}, "Source turns"),
    sources.length ? h("ul", { class: "sources" }, sources) : h("p", { class: "muted" }, "No source turns (a correction)."),
    h("h3", {}, "Supersession chain (oldest first)"),
    h("ol", { class: "chain", testid: "fact-chain" }, chain),
    trees.length ? h("p", {}, "In trees: ", trees) : null,
    ctx.canWrite && fact.status === "current" ? editControls(detail, fact, ctx, reload) : null,
  );
}

function editControls(detail, fact, ctx, reload) {
  const box = h("div", { class: "edit", testid: "fact-edit" });
  const correct = () => {
    const text = h("textarea", { testid: "correct-text", rows: 2, cols: 60 }, fact.text);
    const save = async () => {
      try {
        const created = await api("PATCH", `/v1/forests/${seg(ctx.forest)}/facts/${seg(fact.id)}`, { body: { text: text.value } });
        await loadDetail(detail, created.id, ctx, reload);
        detail.prepend(notice(`Corrected: fact #${created.id} supersedes #${fact.id}.`, "ok"));
      } catch (err) {
        box.append(notice(err.message));
      }
    };
    fill(box, text, h("button", { testid: "correct-submit", onclick: save }, "Save correction"), h("button", { onclick: () => fill(box, buttons()) }, "Cancel"));
  };
  const remove = () => {
    box.append(confirmBox("Delete this fact? It leaves queries, listings and every tree.", "Delete", async () => {
      try {
        await api("DELETE", `/v1/forests/${seg(ctx.forest)}/facts/${seg(fact.id)}`);
        reload();
      } catch (err) {
        box.append(notice(err.message));
      }
    }, (b) => b.remove()));
  };
  const buttons = () => [
    h("button", { testid: "fact-correct", onclick: correct }, "Correct"),
    h("button", { class: "danger", testid: "fact-delete", onclick: remove }, "Delete"),
  ];
  return fill(box, buttons());
}
