// A forest's session, entity and scene trees, browsed level by level: a node shows its summary and
// [t_start, t_end]; its children are listed below it, and opening one descends.

import { api, seg } from "./api.js";
import { fill, h, loading, notice, span } from "./dom.js";

const KINDS = ["session", "entity", "scene"];

export function treesView(root, ctx) {
  const kind = h("select", { testid: "tree-kind", onchange: () => loadTrees(list, pane, ctx, kind.value) },
    KINDS.map((k) => h("option", { value: k }, `${k} trees`)));
  const list = h("ul", { class: "trees", testid: "tree-list" });
  const pane = h("div", { class: "node-pane" }, h("p", { class: "muted" }, "Pick a tree."));
  fill(root, h("div", { class: "split" }, h("aside", {}, kind, list), pane));
  loadTrees(list, pane, ctx, kind.value);
}

async function loadTrees(list, pane, ctx, kind) {
  fill(list, loading());
  try {
    const page = await api("GET", `/v1/forests/${seg(ctx.forest)}/trees`, { params: { kind, limit: 200 } });
    fill(list, page.items.map((t) =>
      h("li", { testid: "tree-item" },
        h("button", { class: "link", disabled: !t.root_node_id, onclick: () => openNode(pane, ctx, t.root_node_id, []) }, t.label),
        h("span", { class: "muted" }, ` ${t.n_leaves} leaves, height ${t.height}`))));
    if (!page.items.length) list.append(h("li", { class: "muted" }, `No ${kind} trees.`));
  } catch (err) {
    fill(list, notice(err.message));
  }
}

async function openNode(pane, ctx, nodeId, path) {
  fill(pane, loading());
  let node;
  try {
    node = await api("GET", `/v1/forests/${seg(ctx.forest)}/nodes/${seg(nodeId)}`, { params: { limit: 200 } });
  } catch (err) {
    fill(pane, notice(err.message));
    return;
  }
  const trail = [...path, { id: node.id, level: node.level }];
  const crumbs = h("p", { class: "trail" },
    h("span", {}, `${node.tree.kind}: ${node.tree.label}`),
    trail.map((p, i) => [" › ", i === trail.length - 1
      ? h("span", {}, `level ${p.level}`)
      : h("button", { class: "link", onclick: () => openNode(pane, ctx, p.id, trail.slice(0, i)) }, `level ${p.level}`)]));
  const children = node.children.map((c) =>
    h("li", { testid: "tree-node", class: "child", "data-level": c.level, "data-node-id": c.id },
      h("span", { class: "interval" }, span(c.interval.start, c.interval.end)),
      h("span", { class: "badge" }, c.leaf ? c.leaf.kind : `level ${c.level}`),
      c.leaf ? null : h("button", { class: "link", testid: "node-open", onclick: () => openNode(pane, ctx, c.id, trail) }, `open (${c.n_children})`),
      h("div", { class: "summary" }, c.text || "(summary pending)")));
  fill(
    pane,
    crumbs,
    h("section", { class: "card", testid: "tree-node", "data-level": node.level, "data-node-id": node.id },
      h("h3", {}, `Level ${node.level} `, h("span", { class: "interval", testid: "node-interval" }, span(node.interval.start, node.interval.end))),
      node.summary ? h("p", { class: "summary", testid: "node-summary" }, node.summary) : null,
      node.leaf ? h("p", { class: "summary" }, `${node.leaf.kind}: ${node.leaf.text}`) : null,
      node.dirty ? h("p", { class: "muted" }, "Summary refresh pending.") : null),
    children.length ? h("ol", { class: "children" }, children) : null,
  );
}
