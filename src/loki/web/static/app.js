// loki web: the table page.  Plain JavaScript, no build step.  Talks JSON to the Starlette app
// (loki/web/app.py): HTTP to create a session, a WebSocket for the game (HTTP as a fallback).
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const STREETS = ["pre-flop", "flop", "turn", "river"];
const GRID_RANKS = "AKQJT98765432";
let session = null;     // the last snapshot
let ws = null;
let selected = 0;       // index of the explanation shown
let followLatest = true; // show the latest decision as new ones arrive (until the person picks another)
let viewing = null;     // a past hand's summary being viewed, or null
let botErrorsShown = 0;  // bot failures already shown (each is shown once, as an error)
// the page token (loki/web/app.py): every POST and the WebSocket carry it
const TOKEN = (document.querySelector('meta[name="loki-token"]') || {}).content || "";

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function showError(msg) {
  const e = $("error");
  if (!msg) { e.hidden = true; e.textContent = ""; return; }
  e.hidden = false;
  e.textContent = msg;
}

function cardsHTML(text, hidden) {
  if (hidden) return '<span class="card back"></span><span class="card back"></span>';
  if (!text) return "";
  let out = "";
  for (let i = 0; i + 1 < text.length; i += 2) {
    const r = text[i], s = text[i + 1];
    const red = s === "h" || s === "d" ? " red" : "";
    out += `<span class="card${red}" data-card="${esc(r + s)}">${esc(r === "T" ? "10" : r)}<i>${SUITS[s] || s}</i></span>`;
  }
  return out;
}

function fmt(x, d = 3) { return x === null || x === undefined ? "–" : Number(x).toFixed(d); }
function chips(x) { return (x > 0 ? "+" : "") + Number(x).toLocaleString("en", { maximumFractionDigits: 2 }); }

// ------------------------------------------------------------------ server calls
// 503: the session is busy (a bot still deciding for another request) or the server is full; nothing was done,
// so the same request is sent again, BUSY_TRIES times at most, BUSY_WAIT_MS apart
const BUSY_TRIES = 20, BUSY_WAIT_MS = 1000;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
function busyNote(msg, n) { showError(`${msg} (trying again, ${n}/${BUSY_TRIES})`); }

async function http(method, path, body) {
  for (let tries = 1; ; tries++) {
    const res = await fetch(path, {
      method, headers: { "Content-Type": "application/json", "X-Loki-Token": TOKEN },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
    const msg = data && data.error ? data.error : `${res.status}`;
    if (res.status === 503 && tries < BUSY_TRIES) { busyNote(msg, tries); await sleep(BUSY_WAIT_MS); continue; }
    if (!res.ok) { const err = new Error(msg); err.status = res.status; throw err; }
    if (tries > 1) showError("");  // the busy note
    return data;
  }
}

let lastSent = null, busyTries = 0;  // the last WebSocket message, and how often it came back busy

function connect(id) {
  if (ws) { try { ws.close(); } catch (e) { /* ignore */ } }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(id)}?token=${encodeURIComponent(TOKEN)}`);
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error" && msg.status === 503 && lastSent && busyTries + 1 < BUSY_TRIES) {
      busyNote(msg.error, ++busyTries);
      const again = lastSent;
      setTimeout(() => {
        if (lastSent !== again) return;  // the person sent something else meanwhile
        if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(again));
        else { lastSent = null; send(again); }  // the socket closed: over HTTP, which tries again by itself
      }, BUSY_WAIT_MS);
      return;
    }
    if (msg.type === "error") { showError(msg.error); setBusy(false); return; }
    showError("");
    render(msg.state);
  };
  ws.onclose = () => { ws = null; };
}

function setBusy(b) {
  document.body.classList.toggle("busy", b);
  if (b) $("controls").innerHTML = '<span class="prompt">…</span>';
}

async function send(msg) {
  setBusy(true);
  if (ws && ws.readyState === WebSocket.OPEN) { lastSent = msg; busyTries = 0; ws.send(JSON.stringify(msg)); return; }
  // fallback: the same over HTTP
  try {
    const id = session.id;
    let snap;
    if (msg.type === "act") snap = await http("POST", `/api/sessions/${id}/action`, { action: msg.action });
    else if (msg.type === "next") snap = await http("POST", `/api/sessions/${id}/next`, {});
    else if (msg.type === "teaching") snap = await http("POST", `/api/sessions/${id}/teaching`, { on: msg.on });
    else snap = await http("GET", `/api/sessions/${id}`);
    showError("");
    render(snap);
  } catch (e) { showError(e.message); setBusy(false); }
}

// ------------------------------------------------------------------ setup
function botRows(n) {
  const box = $("bot-specs");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  // the adaptive Loki first: heads-up it is the only bot
  const defaults = ["loki2:BRS:adaptive", "loki1", "loki1:TA", "loki1:LA", "loki2:BRS:adaptive", "loki1", "loki1:TC",
    "loki2:BRS:adaptive", "loki1"];
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const v = old[i] !== undefined ? old[i] : defaults[i];
    box.insertAdjacentHTML("beforeend",
      `<label>seat ${i + 2} <input list="specs" name="spec" data-testid="spec-${i + 2}" value="${esc(v)}"></label>`);
  }
}

async function start(ev) {
  ev.preventDefault();
  const f = ev.target;
  const body = {
    name: f.name.value,
    seed: f.seed.value.trim(), // as written: a Number loses digits above 2**53 (the server reads a string of digits)
    teaching: f.teaching.checked,
    players: [...$("bot-specs").querySelectorAll("input")].map((i) => i.value.trim()),
  };
  try {
    setBusy(true);
    const snap = await http("POST", "/api/sessions", body);
    showError("");
    location.hash = snap.id;
    connect(snap.id);
    render(snap);
  } catch (e) { showError(e.message); setBusy(false); }
}

// ------------------------------------------------------------------ the table
function seatXY(k, n, w, h, sw, sh) {
  // the person (seat 1) at the bottom, the others clockwise around an ellipse whose seats stay whole inside the
  // table's w x h box (a seat is sw x sh): centres at least half a seat from every edge
  const a = Math.PI / 2 + (2 * Math.PI * k) / n;
  const rx = Math.max(0, w / 2 - sw / 2 - 2), ry = Math.max(0, h / 2 - sh / 2 - 2);
  return [w / 2 + rx * Math.cos(a), h / 2 + ry * Math.sin(a)];
}

function renderTable(s) {
  const t = $("table");
  for (const el of t.querySelectorAll(".seat")) el.remove();
  t.classList.toggle("many", s.n_players > 6);
  s.seats.forEach((p, k) => {
    const cls = ["seat", p.folded ? "folded" : "", p.to_act ? "to-act" : "", p.human ? "human" : ""].join(" ");
    const badge = p.position ? `<span class="pos pos-${esc(p.position.split("/")[0])}">${esc(p.position)}</span>` : "";
    const hidden = !p.human && !p.cards && !p.folded;
    t.insertAdjacentHTML("beforeend", `
      <div class="${cls}" data-testid="seat-${p.seat}" data-position="${esc(p.position)}" title="${esc(p.name)}">
        <div class="name"><span class="who">${esc(p.name)}</span>${badge}${p.button ? '<span class="dealer" title="button">D</span>' : ""}</div>
        <div class="cards">${p.folded && !p.human ? '<span class="muted">folded</span>' : cardsHTML(p.cards, hidden)}</div>
        <div class="stack">stack ∞ · session <b>${chips(p.session)}</b></div>
        <div class="bet" data-testid="bet-${p.seat}">${p.round_in ? "in: " + p.round_in : ""}</div>
      </div>`);
  });
  $("board").innerHTML = cardsHTML(s.board) || '<span class="muted">no board yet</span>';
  $("pot").textContent = `pot ${s.pot}`;
  $("street").textContent = s.hand_over ? "hand over" : s.street;
  placeSeats();
}

function placeSeats() {
  // on the ellipse when the table is a box of its own (wide screens); in the narrow layout the CSS grid places them
  const t = $("table"), seats = [...t.querySelectorAll(".seat")];
  if (getComputedStyle(seats[0] || t).position !== "absolute") return;
  const sw = Math.max(...seats.map((e) => e.offsetWidth)), sh = Math.max(...seats.map((e) => e.offsetHeight));
  seats.forEach((e, k) => {
    const [x, y] = seatXY(k, seats.length, t.clientWidth, t.clientHeight, sw, sh);
    e.style.left = `${x}px`;
    e.style.top = `${y}px`;
  });
}
window.addEventListener("resize", placeSeats);

function renderControls(s) {
  const c = $("controls");
  c.innerHTML = "";
  if (s.hand_over) {
    c.insertAdjacentHTML("beforeend", '<button type="button" data-testid="next-hand" id="next-hand">Next hand</button>');
    $("next-hand").onclick = () => send({ type: "next" });
  } else if (s.legal.length) {
    const owe = s.to_call > 0 ? `to call ${s.to_call}` : "nothing to call: check";
    c.insertAdjacentHTML("beforeend", `<span class="prompt" data-testid="prompt">your turn — ${owe}</span>`);
    for (const a of s.legal) {
      c.insertAdjacentHTML("beforeend",
        `<button type="button" class="act act-${a.action}" data-testid="act-${a.action}" data-action="${a.action}">${esc(a.label)}</button>`);
    }
    for (const b of c.querySelectorAll("button.act")) b.onclick = () => send({ type: "act", action: b.dataset.action });
  } else {
    c.insertAdjacentHTML("beforeend", '<span class="prompt">waiting for the bots…</span>');
  }
  setBusy(false);
}

function renderLog(s) {
  const ol = $("log");
  ol.innerHTML = "";
  for (const l of s.log) {
    if (l.seat === null) {
      ol.insertAdjacentHTML("beforeend", `<li class="street"><b>${esc(l.verb)}</b> ${cardsHTML(l.text)}</li>`);
    } else {
      // the person named "you" is spoken to: "you call 10", not "you calls 10"
      const text = l.who === "you" && s.seats[l.seat - 1].human ? l.text.replace(/^(\w+?)s\b/, "$1") : l.text;
      ol.insertAdjacentHTML("beforeend", `<li class="v-${esc(l.verb)}"><b>${esc(l.who)}</b> ${esc(text)}</li>`);
    }
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderResult(s) {
  const r = $("result");
  if (!s.hand_over || !s.result) { r.hidden = true; r.innerHTML = ""; return; }
  const me = s.seats.find((p) => p.human);
  const won = s.result.payoffs[me.seat - 1];
  const shown = Object.entries(s.result.shown).map(([seat, v]) =>
    `<li>${esc(s.seats[Number(seat) - 1].name)} ${s.seats[Number(seat) - 1].human ? "show" : "shows"} ${cardsHTML(v.cards)} — ${esc(v.hand)}</li>`).join("");
  r.hidden = false;
  r.innerHTML = `
    <h3>Hand ${s.result.hand}</h3>
    ${shown ? `<ul class="shown">${shown}</ul>` : ""}
    <ul class="winners" data-testid="winners">${s.result.results.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>
    <p class="you ${won > 0 ? "plus" : won < 0 ? "minus" : ""}" data-testid="your-result">
      ${me.folded ? "you folded: " + (won < 0 ? `lost ${-won} chips` : "it cost you nothing")
        : won > 0 ? `you win ${won} chips` : won < 0 ? `you lose ${-won} chips` : "you break even"}</p>`;
}

function renderSession(s) {
  const t = $("session-table");
  let rows = "<tr><th>player</th><th>chips</th><th>sb/hand</th></tr>";
  s.seats.forEach((p, i) => {
    rows += `<tr><td>${esc(p.name)}</td><td>${chips(s.session.chips[i])}</td><td>${fmt(s.session.sb_per_hand[i])}</td></tr>`;
  });
  const n = s.session.hands;
  t.innerHTML = rows + `<tr><td colspan="3" class="muted">${n} hand${n === 1 ? "" : "s"} played</td></tr>`;
  const past = $("past");
  past.innerHTML = s.hands_done ? "past hands: " : "";
  const first = Math.max(1, s.hands_done - 20 + 1);
  for (let h = first; h <= s.hands_done; h++) {
    past.insertAdjacentHTML("beforeend", `<a href="#" data-hand="${h}" data-testid="past-${h}">${h}</a> `);
  }
  for (const a of past.querySelectorAll("a")) a.onclick = (ev) => { ev.preventDefault(); viewPast(Number(a.dataset.hand)); };
}

async function viewPast(h) {
  try {
    viewing = await http("GET", `/api/sessions/${session.id}/hands/${h}`);
    selected = 0;
    followLatest = false;
    renderExplanations(viewing.explanations, `hand ${h} (finished)`);
  } catch (e) { showError(e.message); }
}

// ------------------------------------------------------------------ explanations
function heat(x) {
  if (x === null || x === undefined) return "#222";
  const v = Math.max(0, Math.min(1, x));
  const l = 12 + 50 * v;
  return `hsl(${10 + 110 * v}, 70%, ${l}%)`;
}

function gridHTML(grid, title) {
  let cells = "";
  for (let i = 0; i < 13; i++) {
    for (let j = 0; j < 13; j++) {
      const r1 = GRID_RANKS[Math.min(i, j)], r2 = GRID_RANKS[Math.max(i, j)];
      const name = i === j ? r1 + r1 : i < j ? GRID_RANKS[i] + GRID_RANKS[j] + "s" : GRID_RANKS[j] + GRID_RANKS[i] + "o";
      void r2;
      const x = grid[i][j];
      cells += `<div class="cell" style="background:${heat(x)}" title="${name}: ${x === null ? "impossible" : fmt(x)}">${name}</div>`;
    }
  }
  return `<figure class="heatmap"><figcaption>${esc(title)}</figcaption><div class="grid" data-testid="heatmap">${cells}</div></figure>`;
}

function table(headers, rows) {
  return `<table class="num"><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("") + "</table>";
}

function explanationHTML(e) {
  let h = `<h4>hand ${esc(e.hand)} · ${esc(e.player)} (seat ${e.seat}) · ${STREETS[e.street]} ·
    ${cardsHTML(e.hole)} ${e.board ? "| " + cardsHTML(e.board) : ""} · pot ${e.pot} · to call ${e.to_call}
    → <b class="action">${esc(e.action)}</b></h4><p class="summary" data-testid="summary">${esc(e.summary)}</p>`;
  if (e.error) h += `<p class="error">explanation incomplete: ${esc(e.error)}</p>`;
  if (e.values) {
    const v = e.values, tot = v.ahead + v.tied + v.behind || 1;
    h += `<h5>Our hand against the field (${v.n_opponents} opponent${v.n_opponents === 1 ? "" : "s"}, look-ahead ${v.lookahead})</h5>`;
    h += table(["HS", "HS_n", "PPot", "NPot", "EHS", "EHS'", "ahead / tied / behind"],
      [[fmt(v.hs), fmt(v.hs_n), fmt(v.ppot), fmt(v.npot), fmt(v.ehs), `<b>${fmt(v.ehs_prime)}</b>`,
        `${(100 * v.ahead / tot).toFixed(1)}% / ${(100 * v.tied / tot).toFixed(1)}% / ${(100 * v.behind / tot).toFixed(1)}%`]]);
  }
  if (e.preflop) {
    const p = e.preflop;
    const mark = (k) => `${fmt(p.thresholds[k], 0)}${p.ir >= p.thresholds[k] ? " ✓" : ""}`;
    const who = p.model === "expert" ? "the expert system" : "the adaptive pre-flop model" + (p.heads_up ? ", heads-up" : "");
    h += `<h5>Pre-flop strategy (${who}) — ${esc(p.plays)}</h5>`;
    h += table(["class", `IR (IR${p.ir_table})`, "group (E)", "position", "Make1", "Make2", "Make4", "chosen"],
      [[esc(p.hand_class), fmt(p.ir, 0), `${esc(p.group)} (${fmt(p.expected_players, 1)})`, p.position,
        mark("MAKE1"), mark("MAKE2"), mark("MAKE4"), `<b>${esc(p.strategy)}</b>`]]);
  }
  if (e.rules) {
    const r = e.rules, t = r.thresholds;
    h += `<h5>Rule chain: <b>${esc(r.rule)}</b> fired${r.generator && r.generator !== "rules" ? ` (${esc(r.generator)} generator)` : ""} — triple [f, c, r] = [${r.triple.map((x) => fmt(x)).join(", ")}]` +
      (r.u !== null ? `, u = ${fmt(r.u)}` : "") + "</h5>";
    h += table(["rule", "fold", "check/call", "bet/raise"],
      r.shares.map((s) => [s.rule === r.rule ? `<b>${esc(s.rule)}</b>` : esc(s.rule), fmt(s.fold), fmt(s.call), fmt(s.raise)]));
    h += `<p class="thresholds">make1 ${fmt(t.make1, 2)}, make2 ${fmt(t.make2, 2)}` +
      (t.aggressive_call_raise !== null ? `, aggressive raise above ${fmt(t.aggressive_call_raise, 2)}` : "") +
      `; pot odds ${fmt(t.pot_odds)}, semi-bluff odds ${fmt(t.pot_odds2)}, showdown odds ${fmt(t.showdown_odds)}` +
      (t.make_width || t.odds_width ? ` (ramps ±${fmt(t.make_width, 2)} / ±${fmt(t.odds_width, 2)})` : "") + "</p>";
  }
  if (e.simulation) {
    const s = e.simulation;
    h += `<h5>Simulator: ${s.trials} of ${s.max_trials} trials${s.cutoff ? `, cut off early (${esc(s.cutoff_rule)} rule)` : ""}</h5>`;
    const rows = [];
    if (s.to_call > 0) rows.push(["fold", "0.00", "0.00"]);
    rows.push(["check/call", chips(s.ev_call.toFixed(2)), fmt(s.sd_call, 2)]);
    if (s.can_raise) rows.push(["bet/raise", chips(s.ev_raise.toFixed(2)), fmt(s.sd_raise, 2)]);
    h += table(["action", "EV (chips)", "sd (chips)"], rows);
  }
  if (e.card_blind) {
    const c = e.card_blind;
    const why = c.passive ? `it has answered ${c.answers} bets and never folded, bet or raised`
      : `${c.actions} actions seen at showdowns: aggression and strength covary by ${fmt(c.covariance)}, mean HS_1 ${fmt(c.strength)}`;
    h += `<h5>Card-blind opponent: seat ${c.opponent} (${why})</h5>` +
      `<p>equity against a random holding ${fmt(c.equity)}: raise above ${fmt(c.raise_equity, 2)}, call from ` +
      `${fmt(c.call_margin, 2)} × pot odds ${fmt(c.pot_odds)}</p>`;
  }
  if (e.probabilities) h += `<p>drawn from: fold ${fmt(e.probabilities[0])}, check/call ${fmt(e.probabilities[1])}, bet/raise ${fmt(e.probabilities[2])}</p>`;
  if (e.opponents && e.opponents.length) {
    h += "<h5>Opponents as modelled — weight tables (mean weight per hand class; bright = likely)</h5><div class=\"opponents\">";
    for (const o of e.opponents) {
      let rw = "no action seen yet";
      if (o.reweight) {
        const w = o.reweight;
        rw = `last action: <b>${esc(w.action)}</b> on the ${STREETS[w.street]} — ` +
          (w.method === "loki1" ? `Loki-1 ramp μ ${fmt(w.mu, 2)}, σ ${fmt(w.sigma, 2)}` : w.method === "triple" ? "re-weighted by its probability triples" : w.method === "specific" ? "re-weighted by opponent-specific triples" : `re-weighted (${w.method})`) +
          (w.model_weights ? " — models weighed: " + Object.entries(w.model_weights).map(([k, v]) => `${esc(k)} ${fmt(v, 2)}`).join(", ") : "") +
          (w.changed ? "" : " (no change)");
      }
      h += `<div class="opponent${o.live ? "" : " out"}" data-testid="opponent-${o.seat}">
        <p><b>${esc(o.name)}</b> (seat ${o.seat})${o.live ? "" : " — folded"}<br>${rw}<br>
        likely: ${o.likely.slice(0, 5).map(([c, x]) => `${esc(c)} ${(100 * x).toFixed(1)}%`).join(", ")}</p>
        ${o.live ? `<div class="maps">${gridHTML(o.weights, "now")}${o.reweight && o.reweight.changed ? gridHTML(o.reweight.before, "before its " + o.reweight.action) : ""}</div>` : ""}
      </div>`;
    }
    h += "</div>";
  }
  return h;
}

function renderExplanations(list, label) {
  const d = $("decisions");
  $("explain-hint").textContent = label;
  d.innerHTML = "";
  if (!list.length) { $("detail").innerHTML = ""; return; }
  if (followLatest || selected >= list.length) selected = list.length - 1;
  list.forEach((e, i) => {
    d.insertAdjacentHTML("beforeend",
      `<button type="button" class="decision${i === selected ? " on" : ""}" data-i="${i}" data-testid="decision-${i}">
        ${esc(e.player)} · ${STREETS[e.street]} · ${esc(e.action)}</button>`);
  });
  for (const b of d.querySelectorAll("button")) {
    b.onclick = () => {
      selected = Number(b.dataset.i);
      followLatest = selected === list.length - 1;
      renderExplanations(list, label);
    };
  }
  $("detail").innerHTML = explanationHTML(list[selected]);
}

// ------------------------------------------------------------------ everything
function render(s) {
  const newHand = !session || session.hand !== s.hand || session.hand_over !== s.hand_over;
  if (!session || session.id !== s.id) botErrorsShown = 0;
  session = s;
  $("setup").hidden = true;
  $("game").hidden = false;
  $("session-bar").hidden = false;
  $("hand-counter").textContent = `hand ${s.hand}` + (s.hand_over ? " (over)" : "");
  $("blinds").textContent = `blinds ${s.blinds[0]}/${s.blinds[1]} · limits ${s.limits[0]}/${s.limits[1]}`;
  $("teaching").checked = s.teaching;
  $("phh-link").href = `/api/sessions/${s.id}/hands.phhs`;
  if (s.save_error) showError(s.save_error);
  if (s.bot_error_count > botErrorsShown && s.bot_errors.length) showError(s.bot_errors[s.bot_errors.length - 1]);
  botErrorsShown = s.bot_error_count;
  renderTable(s);
  renderLog(s);
  renderControls(s);
  renderResult(s);
  renderSession(s);
  if (newHand) { selected = 0; followLatest = true; viewing = null; }
  if (!viewing) {
    const label = s.hand_over ? `hand ${s.result ? s.result.hand : ""}: every bot decision` :
      s.teaching ? "live (teaching mode)" : "shown when the hand is over (or turn on teaching mode)";
    renderExplanations(s.explanations, label);
  }
}

async function resume() {
  const id = location.hash.slice(1);
  if (!id) return;
  try {
    const snap = await http("GET", `/api/sessions/${encodeURIComponent(id)}`);
    connect(id);
    render(snap);
  } catch (e) {
    // only a session the server no longer has is forgotten; a busy one (a bot deciding for minutes) keeps its
    // address, to be reloaded
    if (e.status === 404) { showError(e.message); location.hash = ""; }
    else showError(`${e.message} (reload the page to try again)`);
  }
}

function init() {
  const sel = $("bots-count");
  for (let i = 1; i <= 9; i++) sel.insertAdjacentHTML("beforeend", `<option value="${i}"${i === 2 ? " selected" : ""}>${i}</option>`);
  sel.onchange = () => botRows(Number(sel.value));
  botRows(2);
  $("setup-form").onsubmit = start;
  $("teaching").onchange = (ev) => send({ type: "teaching", on: ev.target.checked });
  $("new-session").onclick = () => {
    location.hash = ""; session = null; viewing = null;
    if (ws) ws.close();
    $("game").hidden = true; $("session-bar").hidden = true; $("setup").hidden = false; showError("");
  };
  resume();
}

init();
