// newshound serve: the page's behaviour. Reads the JSON API of the same
// server; every text from the database goes into the page through
// textContent (never innerHTML), so stored text can never run as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const PAGE = 20;
let current = null; // the search on screen: {params, offset}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// "1 recurring line", "2 recurring lines".
function plural(n, noun) {
  return n + " " + noun + (n === 1 ? "" : "s");
}

// A search snippet with its matches marked: the store writes each match as
// [words]; each becomes a <mark> (built as nodes, never as markup).
function snippetNode(snippet) {
  const p = el("p", undefined, "snippet");
  const match = /\[([^\[\]\n]+)\]/g;
  let at = 0;
  for (const m of snippet.matchAll(match)) {
    if (m.index > at) p.append(document.createTextNode(snippet.slice(at, m.index)));
    p.append(el("mark", m[1]));
    at = m.index + m[0].length;
  }
  if (at < snippet.length) p.append(document.createTextNode(snippet.slice(at)));
  return p;
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = !msg;
}

async function api(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => ({ error: "bad response (" + r.status + ")" }));
  if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
  return body;
}

function formParams() {
  const p = new URLSearchParams();
  for (const name of ["q", "site", "lang", "since", "until"]) {
    const v = $(name).value.trim();
    if (v) p.set(name, v);
  }
  return p;
}

function fillForm(p) {
  for (const name of ["q", "site", "lang", "since", "until"]) {
    $(name).value = p.get(name) || "";
  }
}

async function runSearch(params, offset) {
  showError("");
  current = { params, offset };
  const p = new URLSearchParams(params);
  p.set("limit", String(PAGE));
  if (offset) p.set("offset", String(offset));
  let body;
  try {
    body = await api("/api/search?" + p.toString());
  } catch (e) {
    showError(e.message);
    return;
  }
  $("overview").hidden = true;
  $("article").hidden = true;
  $("results").hidden = false;
  const q = params.get("q");
  $("results-title").textContent = q
    ? "Results for \u201c" + q + "\u201d" + (offset ? " (from " + (offset + 1) + ")" : "")
    : "Newest articles";
  const list = $("hits");
  list.replaceChildren();
  list.start = offset + 1;
  if (body.results.length === 0) list.append(el("li", "No articles match."));
  for (const hit of body.results) {
    const li = el("li");
    li.className = "hit";
    const a = el("a", hit.title || hit.url);
    a.href = "#article-" + hit.id;
    a.dataset.id = String(hit.id);
    a.addEventListener("click", (ev) => { ev.preventDefault(); openArticle(hit.id); });
    li.append(a, el("span", hit.site, "site"), snippetNode(hit.snippet));
    list.append(li);
  }
  $("prev").disabled = offset === 0;
  $("next").disabled = body.results.length < PAGE;
}

async function openArticle(id) {
  showError("");
  let a;
  try {
    a = await api("/api/articles/" + encodeURIComponent(id));
  } catch (e) {
    showError(e.message);
    return;
  }
  $("results").hidden = true;
  $("overview").hidden = true;
  $("article").hidden = false;
  $("article-title").textContent = a.title || a.url;
  const meta = [a.site, a.published_at, a.author, a.language, plural(a.word_count, "word")]
    .filter(Boolean).join(" \u00b7 ");
  $("article-meta").replaceChildren(el("span", meta + " \u00b7 "));
  const link = el("a", a.url);
  link.href = a.url;
  link.rel = "noopener noreferrer";
  $("article-meta").append(link);
  const text = $("article-text");
  text.replaceChildren();
  for (const para of a.text.split("\n")) {
    if (para.trim()) text.append(el("p", para));
  }
  $("article-html").href = "/api/articles/" + a.id + "/html";
  $("back").hidden = current === null;
}

function chart(perDay) {
  const days = [...new Set(perDay.map((d) => d.day))].sort();
  const sites = [...new Set(perDay.map((d) => d.site))].sort();
  const box = $("chart");
  box.replaceChildren();
  if (days.length === 0) {
    box.append(el("p", "No dated articles yet."));
    return;
  }
  const W = 720, H = 220, L = 36, B = 28, T = 10;
  const totals = days.map((day) => perDay.filter((d) => d.day === day)
    .reduce((n, d) => n + d.articles, 0));
  const max = Math.max(...totals, 1);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Articles per day per site");
  const bar = (W - L - 8) / days.length;
  days.forEach((day, i) => {
    let y = H - B;
    sites.forEach((site, s) => {
      const n = perDay.find((d) => d.day === day && d.site === site)?.articles || 0;
      if (!n) return;
      const h = (H - B - T) * n / max;
      y -= h;
      const r = document.createElementNS(SVG, "rect");
      r.setAttribute("x", String(L + i * bar + 1));
      r.setAttribute("y", String(y));
      r.setAttribute("width", String(Math.max(bar - 2, 1)));
      r.setAttribute("height", String(h));
      r.setAttribute("fill", COLOURS[s % COLOURS.length]);
      const tip = document.createElementNS(SVG, "title");
      tip.textContent = site + ", " + day + ": " + n;
      r.append(tip);
      svg.append(r);
    });
  });
  const label = (x, y, text, anchor) => {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", String(x));
    t.setAttribute("y", String(y));
    t.setAttribute("font-size", "11");
    t.setAttribute("text-anchor", anchor);
    t.textContent = text;
    svg.append(t);
  };
  label(L - 4, T + 8, String(max), "end");
  label(L - 4, H - B, "0", "end");
  label(L, H - 8, days[0], "start");
  label(W - 8, H - 8, days[days.length - 1], "end");
  box.append(svg);
  const legend = el("p", undefined, "legend");
  sites.forEach((site, s) => {
    const item = el("span");
    const swatch = el("i");
    swatch.style.background = COLOURS[s % COLOURS.length];
    item.append(swatch, document.createTextNode(site));
    legend.append(item);
  });
  box.append(legend);
}

async function overview() {
  let s;
  try {
    s = await api("/api/stats");
  } catch (e) {
    showError(e.message);
    return;
  }
  const kept = s.kept_html.pages
    ? ", " + plural(s.kept_html.pages, "page") + " kept (" +
      (s.kept_html.body_bytes / Math.max(s.kept_html.compressed_bytes, 1)).toFixed(1) +
      "\u00d7 compressed)"
    : "";
  $("summary").textContent = plural(s.articles, "article") + " from " + plural(s.sites.length, "site") + kept + ".";
  for (const site of s.sites) {
    const o = el("option", site.site);
    o.value = site.site;
    $("site").append(o);
  }
  for (const l of s.languages) {
    if (!l.language) continue;
    const o = el("option", l.language + " (" + l.articles + ")");
    o.value = l.language;
    $("lang").append(o);
  }
  chart(s.per_day);
  const box = $("boilerplate");
  box.replaceChildren();
  for (const b of s.boilerplate) {
    const d = el("details");
    d.append(el("summary", b.site + " \u2014 " + plural(b.lines.length, "recurring line")));
    const ul = el("ul");
    for (const line of b.lines) ul.append(el("li", line.line + " (\u00d7" + line.count + ")"));
    d.append(ul);
    box.append(d);
  }
}

function start() {
  const initial = new URLSearchParams(location.search);
  $("search").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p = formParams();
    history.pushState(null, "", p.toString() ? "/?" + p.toString() : "/");
    runSearch(p, 0);
  });
  $("prev").addEventListener("click", () => runSearch(current.params, Math.max(0, current.offset - PAGE)));
  $("next").addEventListener("click", () => runSearch(current.params, current.offset + PAGE));
  $("back").addEventListener("click", () => {
    $("article").hidden = true;
    $("results").hidden = false;
  });
  overview().then(() => {
    // `/?q=WORD` (and the filters) opens with that search done, so a
    // search can be shared as a link. Options exist only after overview().
    fillForm(initial);
    if ([...initial.keys()].length) runSearch(formParams(), 0);
  });
}

start();
