// The tenant's forests: sessions, facts, trees and the last write of each.

import { api } from "./api.js";
import { fill, h, loading, notice, when } from "./dom.js";

export async function forestsView(root, { go }) {
  fill(root, loading("Loading forests"));
  let data;
  try {
    data = await api("GET", "/v1/overview");
  } catch (err) {
    fill(root, notice(err.message));
    return;
  }
  if (!data.items.length) {
    fill(root, h("section", { class: "card" }, h("h1", {}, "Forests"), h("p", {}, "This tenant has no forests yet."), h("ul", { testid: "forest-list" })));
    return;
  }
  const rows = data.items.map((f) =>
    h(
      "tr", { testid: "forest-item", class: "clickable", "data-forest": f.name, onclick: () => go(f.name, "facts") },
      h("td", {}, h("a", { href: `#/f/${encodeURIComponent(f.name)}/facts` }, f.name)),
      h("td", { class: "num" }, f.sessions),
      h("td", { class: "num" }, `${f.facts_current} / ${f.facts}`),
      h("td", { class: "num" }, f.trees),
      h("td", {}, when(f.last_write)),
    ),
  );
  fill(
    root,
    h(
      "section", { class: "card" },
      h("h1", {}, "Forests"),
      h(
        "table", { testid: "forest-list" },
        h("thead", {}, h("tr", {}, h("th", {}, "Forest"), h("th", {}, "Sessions"), h("th", { title: "current / all (not retracted)" }, "Facts"), h("th", {}, "Trees"), h("th", {}, "Last write"))),
        h("tbody", {}, rows),
      ),
    ),
  );
}
