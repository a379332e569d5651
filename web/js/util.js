// Small DOM helpers shared by the dashboard modules.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** Creates an element with properties and children. */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** The error code of an API error body (text before the first colon), or "". */
export function errorCode(body) {
  const e = body && typeof body.error === "string" ? body.error : "";
  const i = e.indexOf(":");
  return i < 0 ? e : e.slice(0, i);
}

/** Local time of a Unix-seconds timestamp as HH:MM:SS. */
export function clockTime(unixSeconds) {
  const d = unixSeconds ? new Date(unixSeconds * 1000) : new Date();
  return d.toLocaleTimeString([], { hour12: false });
}

/** The game hour (0-24) as HH:MM. */
export function gameClock(hour) {
  const h = Math.floor(hour);
  const m = Math.floor((hour - h) * 60);
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** A tiny event emitter. */
export class Emitter {
  constructor() { this.handlers = new Map(); }
  on(name, fn) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name).add(fn);
    return () => this.handlers.get(name).delete(fn);
  }
  emit(name, value) {
    for (const fn of this.handlers.get(name) ?? []) {
      try { fn(value); } catch (e) { console.error(e); }
    }
  }
}
