// A forest's sessions with their turns; with a write key, retracting one (after a confirmation)
// forgets its turns and the facts only it supported.

import { api, seg } from "./api.js";
import { confirmBox, fill, h, loading, notice, when } from "./dom.js";

export function sessionsView(root, ctx) {
  const list = h("div", { class: "sessions", testid: "session-list" });
  fill(root, list);
  loadSessions(list, ctx, null);
}

async function loadSessions(list, ctx, cursor) {
  if (!cursor) fill(list, loading("Loading sessions"));
  let page;
  try {
    page = await api("GET", `/v1/forests/${seg(ctx.forest)}/sessions`, { params: { cursor, limit: 100 } });
  } catch (err) {
    fill(list, notice(err.message));
    return;
  }
  if (!cursor) fill(list);
  list.querySelector(".more")?.remove();
  if (!cursor && !page.items.length) list.append(h("p", { class: "muted" }, "No sessions."));
  for (const s of page.items) list.append(sessionRow(s, ctx, () => loadSessions(list, ctx, null)));
  if (page.next_cursor) list.append(h("button", { class: "more", onclick: () => loadSessions(list, ctx, page.next_cursor) }, "More sessions"));
}

function sessionRow(s, ctx, reload) {
  const turns = h("div", { class: "detail", hidden: true });
  const row = h("article", { class: "session", testid: "session-row", "data-session-id": s.session_id });
  const open = async () => {
    turns.hidden = !turns.hidden;
    if (turns.hidden) return;
    fill(turns, loading());
    try {
      const full = await api("GET", `/v1/forests/${seg(ctx.forest)}/sessions/${seg(s.session_id)}`);
      fill(turns, h("ol", { class: "turns" }, full.turns.map((t) => h("li", {}, h("b", {}, `${t.speaker}: `), t.text))));
    } catch (err) {
      fill(turns, notice(err.message));
    }
  };
  const retract = () => {
    row.append(confirmBox(`Retract session ${s.session_id}? Its turns and the facts only it supports are forgotten.`, "Retract", async (box) => {
      try {
        const report = await api("DELETE", `/v1/forests/${seg(ctx.forest)}/sessions/${seg(s.session_id)}`);
        box.replaceWith(notice(`Retracted ${s.session_id}: ${JSON.stringify(report.counts || report)}`, "ok"));
        setTimeout(reload, 1500);
      } catch (err) {
        box.replaceWith(notice(err.message));
      }
    }, (box) => box.remove()));
  };
  return fill(
    row,
    h("div", { class: "line" },
      h("button", { class: "link", onclick: open }, s.session_id),
      h("span", { class: "muted" }, ` ${when(s.time)} · ${s.turns} turns`),
      h("a", { href: `#/f/${encodeURIComponent(ctx.forest)}/facts/${encodeURIComponent(s.session_id)}` }, "facts"),
      ctx.canWrite ? h("button", { class: "danger", testid: "session-retract", onclick: retract }, "Retract") : null),
    turns,
  );
}
