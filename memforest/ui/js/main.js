// The memory browser: a pasted tenant key, then forests, facts, entity timelines, trees, sessions
// and queries, each a view chosen by the location's hash (#/f/<forest>/<view>).

import { api, forgetKey, storeKey, storedKey } from "./api.js";
import { fill, h, notice } from "./dom.js";
import { factsView } from "./facts.js";
import { forestsView } from "./forests.js";
import { queryView } from "./query.js";
import { sessionsView } from "./sessions.js";
import { timelineView } from "./timeline.js";
import { treesView } from "./trees.js";

const VIEWS = {
  facts: ["Facts", factsView],
  entities: ["Entities", timelineView],
  trees: ["Trees", treesView],
  sessions: ["Sessions", sessionsView],
  query: ["Query", queryView],
};

const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const keybar = document.getElementById("keybar");
let caller = null; // {scopes, can_write} of the stored key

function keyForm(message) {
  const input = h("input", {
    type: "password", id: "api-key", testid: "api-key", autocomplete: "off", spellcheck: "false",
    placeholder: "mf_…", required: true,
  });
  const form = h(
    "form", { class: "keyform", onsubmit: (e) => { e.preventDefault(); signIn(input.value.trim()); } },
    h("label", { for: "api-key" }, "Tenant API key"),
    input,
    h("button", { type: "submit", testid: "key-submit" }, "Open"),
    h("p", { class: "muted" }, "The key stays in this tab (sessionStorage) and is sent only to this server."),
  );
  fill(keybar);
  fill(crumbs);
  fill(main, h("section", { class: "card narrow" }, h("h1", {}, "Memory browser"), form, message || ""));
  input.focus();
}

async function signIn(key) {
  if (!key) return;
  storeKey(key);
  try {
    caller = await api("GET", "/v1/key");
  } catch (err) {
    forgetKey();
    caller = null;
    keyForm(notice(`This key was not accepted (${err.message}).`));
    return;
  }
  route();
}

function showKeybar() {
  const role = caller.can_write ? "read and write" : "read only";
  fill(
    keybar,
    h("span", { class: "badge", testid: "key-role" }, role),
    h("button", { class: "link", testid: "key-forget", onclick: () => { forgetKey(); caller = null; location.hash = "#/"; keyForm(); } }, "Forget key"),
  );
}

function parseHash() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] !== "f" || !parts[1]) return { forest: null };
  return { forest: parts[1], view: VIEWS[parts[2]] ? parts[2] : "facts", arg: parts.slice(3).join("/") || null };
}

export function go(forest, view, arg) {
  const tail = arg ? `/${encodeURIComponent(arg)}` : "";
  location.hash = `#/f/${encodeURIComponent(forest)}/${view}${tail}`;
}

function forestPage(forest, view, arg) {
  fill(crumbs, h("a", { href: "#/" }, "Forests"), " / ", h("span", { testid: "current-forest" }, forest));
  const tabs = h(
    "nav", { class: "tabs" },
    Object.entries(VIEWS).map(([name, [label]]) =>
      h("a", { href: `#/f/${encodeURIComponent(forest)}/${name}`, class: name === view ? "active" : "", testid: `tab-${name}` }, label),
    ),
  );
  const body = h("div", { class: "view" });
  fill(main, tabs, body);
  VIEWS[view][1](body, { forest, arg, canWrite: caller.can_write, go });
}

function route() {
  if (!caller) return;
  showKeybar();
  const { forest, view, arg } = parseHash();
  if (forest) {
    forestPage(forest, view, arg);
  } else {
    fill(crumbs, h("span", {}, "Forests"));
    forestsView(main, { go });
  }
}

window.addEventListener("hashchange", route);
const saved = storedKey();
if (saved) signIn(saved);
else keyForm();
