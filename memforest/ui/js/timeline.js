// A forest's entities and one entity's timeline: each state chain (an attribute's values, valid
// from/to) as a row of segments on a shared time axis, the other facts naming it as points.

import { api, seg } from "./api.js";
import { fill, h, interval, loading, notice, when } from "./dom.js";

export function timelineView(root, ctx) {
  const search = h("input", { placeholder: "find an entity", testid: "entity-search", size: 18 });
  const list = h("ul", { class: "entities", testid: "entity-list" });
  const pane = h("div", { class: "timeline-pane" });
  const find = () => loadEntities(list, ctx, search.value.trim());
  fill(
    root,
    h("div", { class: "split" },
      h("aside", {}, h("form", { onsubmit: (e) => { e.preventDefault(); find(); } }, search), list),
      pane),
  );
  find();
  if (ctx.arg) loadTimeline(pane, ctx, ctx.arg);
  else fill(pane, h("p", { class: "muted" }, "Pick an entity to see its timeline."));
}

async function loadEntities(list, ctx, q) {
  fill(list, loading());
  try {
    const page = await api("GET", `/v1/forests/${seg(ctx.forest)}/entities`, { params: { q, limit: 100 } });
    fill(list, page.items.map((e) =>
      h("li", { testid: "entity-item" },
        h("a", { href: `#/f/${encodeURIComponent(ctx.forest)}/entities/${encodeURIComponent(e.label)}`, class: e.label === ctx.arg ? "active" : "" }, e.label),
        h("span", { class: "muted" }, ` ${e.fact_count}`))));
    if (!page.items.length) list.append(h("li", { class: "muted" }, "No entities."));
  } catch (err) {
    fill(list, notice(err.message));
  }
}

async function loadTimeline(pane, ctx, entity) {
  fill(pane, loading("Loading timeline"));
  let data;
  try {
    data = await api("GET", `/v1/forests/${seg(ctx.forest)}/entities/${seg(entity)}/timeline`);
  } catch (err) {
    fill(pane, notice(err.message));
    return;
  }
  const states = data.chains.flatMap((c) => c.states);
  const times = [...states, ...data.events].flatMap((s) => [s.valid_from, s.valid_to]).filter(Boolean).map((t) => Date.parse(t));
  const start = Math.min(...times);
  const end = Math.max(...times);
  const span = Math.max(end - start, 86400000);
  const at = (iso) => (iso ? (100 * (Date.parse(iso) - start)) / (span * 1.05) : 100);
  const segment = (s) => {
    const left = at(s.valid_from);
    const width = Math.max(at(s.valid_to) - left, 1.5);
    return h("div", {
      class: `segment ${s.status}`, testid: "timeline-state", "data-fact-id": s.fact_id,
      style: { left: `${left}%`, width: `${width}%` }, title: `${s.text} ${interval(s.valid_from, s.valid_to)}`,
    }, s.value || s.text);
  };
  const rows = data.chains.map((c) =>
    h("div", { class: "track", testid: "timeline-chain", "data-attribute": c.attribute },
      h("div", { class: "track-label" }, c.attribute),
      h("div", { class: "track-bar" }, c.states.map(segment))));
  if (data.events.length) {
    rows.push(h("div", { class: "track" },
      h("div", { class: "track-label" }, "events"),
      h("div", { class: "track-bar" }, data.events.map((e) =>
        h("div", { class: "dot", testid: "timeline-event", style: { left: `${at(e.valid_from)}%` }, title: `${when(e.valid_from)}: ${e.text}` })))));
  }
  const table = h("table", { class: "states" },
    h("thead", {}, h("tr", {}, h("th", {}, "Attribute"), h("th", {}, "Value"), h("th", {}, "Valid from"), h("th", {}, "Valid to"), h("th", {}, "Fact"))),
    h("tbody", {}, data.chains.flatMap((c) => c.states.map((s) =>
      h("tr", { class: s.status }, h("td", {}, c.attribute), h("td", {}, s.value || ""), h("td", {}, when(s.valid_from)),
        h("td", {}, s.valid_to ? when(s.valid_to) : "now"), h("td", {}, s.text))))));
  const e = data.entity;
  fill(
    pane,
    h("section", { class: "card", testid: "entity-timeline", "data-entity": e.label },
      h("h2", {}, e.label),
      h("p", { class: "muted" }, `${e.fact_count} facts in ${e.session_count} sessions · ${when(e.first_time)} – ${when(e.last_time)}`),
      times.length
        ? h("div", { class: "axis-box" }, rows,
          h("div", { class: "axis" }, h("span", {}, when(new Date(start).toISOString())), h("span", {}, when(new Date(start + span).toISOString()))))
        : h("p", { class: "muted" }, "No dated facts."),
      data.chains.length ? table : h("p", { class: "muted", testid: "no-chains" }, "No state chains (no attribute with values)."),
      data.events.length ? h("details", {}, h("summary", {}, `${data.events.length} other facts`),
        h("ul", {}, data.events.map((ev) => h("li", {}, `${when(ev.valid_from)} · ${ev.text}`)))) : null),
  );
}
