// Building elements without innerHTML: every text from the server is set as text, never as markup.

/** An element: `attrs` sets attributes (`testid` is data-testid, `on<event>` a listener, `class`). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "testid") el.dataset.testid = value;
    else if (name === "class") el.className = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "value") el.value = value;
    else if (name === "style") Object.assign(el.style, value); // through CSSOM: the page's CSP forbids style attributes
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An ISO time as "2023-05-03 09:00" (UTC, as stored). */
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 16).replace("T", " ");
}

/** A validity interval: [from, to) with an open end shown as "now". */
export function interval(from, to) {
  return `[${when(from)}, ${to ? when(to) : "now"})`;
}

/** A tree node's time span, both ends included: [t_start, t_end]. */
export function span(start, end) {
  return `[${when(start)}, ${when(end)}]`;
}

/** A message box for an error (or any text). */
export function notice(message, kind = "error") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status", testid: `notice-${kind}` }, message);
}

/** A loading line. */
export function loading(what = "Loading") {
  return h("p", { class: "muted" }, `${what}…`);
}

/** A confirmation box: `question`, a red confirm button and a cancel button. */
export function confirmBox(question, label, onConfirm, onCancel) {
  const box = h("div", { class: "confirm", role: "alertdialog", testid: "confirm" });
  fill(
    box,
    h("p", {}, question),
    h("button", { class: "danger", testid: "confirm-ok", onclick: () => onConfirm(box) }, label),
    h("button", { testid: "confirm-cancel", onclick: () => onCancel(box) }, "Cancel"),
  );
  return box;
}

/** A date input value ("2023-05-03") as an ISO time at midnight UTC, or undefined. */
export function dayStart(value) {
  return value ? `${value}T00:00:00Z` : undefined;
}
