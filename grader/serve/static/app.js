// The workbench page: a puzzle object (as a file holds it) edited on the board and in small
// forms, graded after each change, stepped through, generated and banked, all through the
// JSON API of grader serve (docs/serve.md). No build step, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  families: {}, // name -> what /api/families says
  puzzle: null, // the puzzle being edited
  report: null, // its last grade (grade --json --trace)
  view: 0, // 0 the puzzle; k the board before step k; "end"; "solution"; "hint"
  selected: null, // [row, col] of the chosen cell (view 0)
  grid: null, // where the cells are in the picture
  hint: null,
  graded: 0, // grades finished (tests wait on it)
};
const work = { grade: null, render: null, long: null }; // AbortControllers
const DEBOUNCE_MS = 350;
let gradeTimer = null;

// ---------------------------------------------------------------------------------------------
// talking to the server
// ---------------------------------------------------------------------------------------------

async function api(path, body, signal) {
  const options = body === undefined ? { signal } : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  };
  let answer;
  try {
    answer = await fetch(path, options);
  } catch (error) { // refused or cut off: fetch says only "Failed to fetch"
    if (aborted(error)) throw error;
    throw new Error(`${path}: the server did not answer (is grader serve still running?)`);
  }
  let data;
  try { data = await answer.json(); } catch { data = { error: `${path}: answered ${answer.status}` }; }
  if (!answer.ok) throw new Error(data.error || `${path}: answered ${answer.status}`);
  return data;
}

function restart(kind) {
  if (work[kind]) work[kind].abort();
  work[kind] = new AbortController();
  return work[kind].signal;
}

// Long work (grading, generating, saving) shows what it does, for how long, and can be
// cancelled: the request is aborted and the server stops its worker. Each kind of work is
// shown until it ends, so the grade a load starts stays shown once the load is done.
const running = new Map(); // kind -> { label, started }
let busyTimer = null;
function busy(kind, label) {
  running.delete(kind);
  running.set(kind, { label, started: performance.now() });
  showBusy();
}
function idle(kind) { running.delete(kind); showBusy(); }
function showBusy() {
  clearInterval(busyTimer);
  const latest = [...running.values()].pop();
  $("busy").hidden = !latest;
  if (!latest) return;
  const tick = () => { $("busy-text").textContent = `${latest.label}… ${((performance.now() - latest.started) / 1000).toFixed(1)} s`; };
  tick();
  busyTimer = setInterval(tick, 100);
}
$("cancel").addEventListener("click", () => {
  for (const kind of ["grade", "long"]) if (work[kind]) work[kind].abort();
  running.clear();
  showBusy();
  showError("cancelled");
});

// The one line of the last failure; a board that could not be drawn says so until one is.
let errorFrom = null;
function showError(message, from = "page") {
  $("error").textContent = message || "";
  errorFrom = message ? from : null;
}
const aborted = (error) => error.name === "AbortError";

// ---------------------------------------------------------------------------------------------
// the puzzle and its grade
// ---------------------------------------------------------------------------------------------

function setPuzzle(puzzle, report, { record = true } = {}) {
  state.puzzle = puzzle;
  state.view = 0;
  state.selected = null;
  state.hint = null;
  if (puzzle.family && state.families[puzzle.family] && puzzle.family !== $("family").value) {
    $("family").value = puzzle.family;
    fillFamily();
  }
  const size = puzzle.size ?? (Array.isArray(puzzle.grid) ? [puzzle.grid.length, puzzle.grid[0]?.length] : null);
  if (size) $("size").value = Array.isArray(size) ? size.join("x") : `${size}x${size}`;
  syncForms();
  if (record) remember();
  if (report) {
    state.report = report;
    showReport();
    draw();
  } else { // graded at once, its solution and provenance kept (they are not edits)
    state.report = null;
    showReport();
    draw();
    clearTimeout(gradeTimer);
    grade();
  }
}

// After each edit: the forms follow, the board is drawn, the grade comes a moment later.
function changed(now) {
  delete state.puzzle.solution; // a file's solution and provenance are stale once edited
  delete state.puzzle.meta;
  state.hint = null;
  syncForms();
  remember();
  state.view = 0;
  draw();
  clearTimeout(gradeTimer);
  gradeTimer = setTimeout(grade, now ? 0 : DEBOUNCE_MS);
}

// Undo and redo: every puzzle the board held, as text (an edit, a load, a generated puzzle).
const HISTORY_KEPT = 200;
const history = { past: [], future: [], current: null };

function remember() {
  const now = JSON.stringify(state.puzzle);
  if (now === history.current) return;
  if (history.current !== null) history.past.push(history.current);
  if (history.past.length > HISTORY_KEPT) history.past.shift();
  history.future = [];
  history.current = now;
  showHistory();
}

function showHistory() {
  $("undo").disabled = history.past.length === 0;
  $("redo").disabled = history.future.length === 0;
}

// Back (undo) or forward (redo) one puzzle; the chosen cell stays chosen.
function travel(from, to) {
  if (from.length === 0) return;
  to.push(history.current);
  history.current = from.pop();
  const selected = state.selected;
  setPuzzle(JSON.parse(history.current), undefined, { record: false });
  state.selected = selected;
  showHistory();
}
const undo = () => travel(history.past, history.future);
const redo = () => travel(history.future, history.past);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);

async function grade() {
  const signal = restart("grade");
  busy("grade", "grading");
  try {
    state.report = await api("/api/grade", { puzzle: state.puzzle }, signal);
    showError("");
    showReport();
  } catch (error) {
    if (aborted(error)) return;
    state.report = null;
    showReport();
    showError(error.message);
  } finally {
    if (!signal.aborted) { idle("grade"); state.graded += 1; }
  }
}

function solutionsText(solutions) {
  if (solutions === 1) return '<span class="unique">1 (unique)</span>';
  if (solutions === 0) return '<span class="not-unique">0 (no solution)</span>';
  if (solutions === "2+") return '<span class="not-unique">2+ (not unique)</span>';
  return "unknown (the exact search timed out)";
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function showReport() {
  const r = state.report;
  const rows = [];
  if (r) {
    const deduced = r.solved
      ? `yes, in ${r.steps_count} steps`
      : `no: ${escapeHtml(r.status)} after ${r.steps_count} steps, ${r.remaining} cells open`;
    rows.push(["solutions", solutionsText(r.solutions)], ["deduction alone", deduced],
      ["difficulty", r.difficulty], ["effort", r.effort], ["level", escapeHtml(r.level)],
      ["hardest step", r.hardest ? `<b>${escapeHtml(r.hardest)}</b>: ${escapeHtml(r.hardest_step)}` : "none"],
      ["givens", r.givens]);
    if (r.contradiction) rows.push(["contradiction", escapeHtml(r.contradiction)]);
    for (const note of r.notes || []) rows.push(["note", escapeHtml(note)]);
  }
  $("summary").innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd data-key="${k}">${v}</dd>`).join("");
  showWhere();
}

// ---------------------------------------------------------------------------------------------
// the board
// ---------------------------------------------------------------------------------------------

function steps() { return state.report ? state.report.steps.length : 0; }

function showWhere() {
  const n = steps();
  const v = state.view;
  let text = "puzzle";
  if (v === "end") text = "where the techniques end";
  else if (v === "solution") text = "solution";
  else if (v === "hint") text = "next hint";
  else if (v > 0) text = `step ${v} of ${n}`;
  $("where").textContent = text;
  $("first").disabled = v === 0;
  $("prev").disabled = v === 0;
  $("next").disabled = !(typeof v === "number" && v < n) && v !== "hint";
  $("last").disabled = v === "end" || !state.report;
  const sentence = $("sentence");
  if (typeof v === "number" && v > 0 && state.report) {
    sentence.innerHTML = stepHtml(state.report.steps[v - 1], `${v}. `);
  } else if (v === "hint" && state.hint) {
    sentence.innerHTML = state.hint.hint ? stepHtml(state.hint.hint, "Hint: ") : escapeHtml(state.hint.problem || "no technique applies here");
  } else if (v === "end" && state.report) {
    sentence.textContent = state.report.solved ? "solved by the techniques" : `the techniques stop here (${state.report.status})`;
  } else {
    sentence.textContent = "";
  }
}

function stepHtml(step, prefix) {
  return `${escapeHtml(prefix)}<span class="technique">${escapeHtml(step.technique)}</span> `
    + `<span class="cost">(cost ${step.cost})</span>: ${escapeHtml(step.explanation)}`;
}

async function draw() {
  if (!state.puzzle) return;
  const v = state.view;
  const body = { puzzle: state.puzzle };
  if (v === "end") body.solve = true;
  else if (v === "solution") body.solution = true;
  else if (v === "hint" && state.hint?.hint) body.step = 1; // no step: the puzzle as it is
  else if (v > 0) body.step = v;
  showWhere();
  const signal = restart("render");
  try {
    const answer = await api("/api/render", body, signal);
    $("board").innerHTML = answer.svg;
    state.grid = answer.grid;
    markSelection();
    if (errorFrom === "board") showError("");
  } catch (error) {
    if (!aborted(error)) showError(error.message, "board");
  }
}

function go(view) {
  state.view = view;
  if (view !== 0) state.selected = null;
  draw();
}

function cellAt(event) {
  const svg = $("board").querySelector("svg");
  if (!svg || !state.grid) return null;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  const g = state.grid;
  const col = Math.floor((at.x - g.left) / g.cell);
  const row = Math.floor((at.y - g.top) / g.cell);
  if (row < 0 || col < 0 || row >= g.rows || col >= g.cols) return null;
  return [row, col];
}

function markSelection() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".selection").forEach((e) => e.remove());
  if (!state.selected || state.view !== 0) return;
  const [row, col] = state.selected;
  const g = state.grid;
  const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  rect.setAttribute("class", "selection");
  rect.setAttribute("x", g.left + col * g.cell + 1.5);
  rect.setAttribute("y", g.top + row * g.cell + 1.5);
  rect.setAttribute("width", g.cell - 3);
  rect.setAttribute("height", g.cell - 3);
  svg.appendChild(rect);
}

$("board").addEventListener("click", (event) => {
  const cell = cellAt(event);
  if (!cell || !Array.isArray(state.puzzle?.grid)) return;
  if (state.view !== 0) { state.selected = cell; go(0); return; }
  state.selected = cell;
  markSelection();
});

const UPPER = new Set(["tango", "pairplace", "sudoku"]);
function setCell([row, col], symbol) {
  const grid = state.puzzle.grid;
  const line = grid[row];
  if (typeof line !== "string" || col >= line.length) return;
  grid[row] = line.slice(0, col) + symbol + line.slice(col + 1);
  changed();
}

function moveSelection(dr, dc) {
  const g = state.grid;
  const [row, col] = state.selected;
  state.selected = [Math.min(g.rows - 1, Math.max(0, row + dr)), Math.min(g.cols - 1, Math.max(0, col + dc))];
  markSelection();
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return; // their own undo
  if ((event.ctrlKey || event.metaKey) && !event.altKey && undoKey(event)) { event.preventDefault(); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (state.selected && state.view === 0) {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[key]) moveSelection(...moves[key]);
    else if (key === "Escape") { state.selected = null; markSelection(); }
    else if (["Backspace", "Delete", ".", " "].includes(key)) setCell(state.selected, ".");
    else if (key.length === 1) setCell(state.selected, UPPER.has(state.puzzle.family) ? key.toUpperCase() : key);
    else return;
    event.preventDefault();
    return;
  }
  const n = steps();
  const v = state.view;
  if (key === "ArrowRight") go(typeof v === "number" ? Math.min(n, v + 1) : v === "hint" ? Math.min(n, 2) : v);
  else if (key === "ArrowLeft") go(typeof v === "number" ? Math.max(0, v - 1) : v === "end" ? n : 0);
  else if (key === "Home") go(0);
  else if (key === "End" && state.report) go("end");
  else return;
  event.preventDefault();
});

// Ctrl+Z undoes; Ctrl+Y and Ctrl+Shift+Z redo (Cmd on a Mac). True when the key was one.
function undoKey(event) {
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) undo();
  else if (key === "y" || (key === "z" && event.shiftKey)) redo();
  else return false;
  return true;
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(typeof state.view === "number" ? Math.max(0, state.view - 1) : state.view === "end" ? steps() : 0));
$("next").addEventListener("click", () => go(typeof state.view === "number" ? Math.min(steps(), state.view + 1) : Math.min(steps(), 2)));
$("last").addEventListener("click", () => go("end"));
$("solution").addEventListener("click", () => go("solution"));
$("hint").addEventListener("click", async () => {
  const signal = restart("long");
  busy("long", "looking for a hint");
  try {
    state.hint = await api("/api/hint", { puzzle: state.puzzle }, signal);
    showError("");
    go("hint");
  } catch (error) {
    if (!aborted(error)) showError(error.message);
  } finally { if (!signal.aborted) idle("long"); }
});

// ---------------------------------------------------------------------------------------------
// the forms: family, size, level, paste, JSON, and a family's own fields
// ---------------------------------------------------------------------------------------------

function family() { return state.families[$("family").value]; }

function fillFamily() {
  const f = family();
  $("size").value = f.default_size.join("x");
  $("level").innerHTML = f.levels.map((l) => `<option${l === "normal" ? " selected" : ""}>${escapeHtml(l)}</option>`).join("");
}

$("family").addEventListener("change", fillFamily);
$("example").addEventListener("click", () => setPuzzle(structuredClone(family().example)));
$("empty").addEventListener("click", () => long("making an empty grid", "/api/new",
  { family: $("family").value, size: $("size").value }, (a) => setPuzzle(a.puzzle)));
$("generate").addEventListener("click", () => long("generating", "/api/generate",
  { family: $("family").value, size: $("size").value, level: $("level").value, seed: Number($("seed").value) || 0 },
  (a) => setPuzzle(a.puzzle, a.grade)));

async function long(label, path, body, done) {
  const signal = restart("long");
  busy("long", label);
  try {
    done(await api(path, body, signal));
    showError("");
  } catch (error) {
    if (!aborted(error)) showError(error.message);
  } finally { if (!signal.aborted) idle("long"); }
}

let loaded = [];
$("load").addEventListener("click", async () => {
  const text = $("paste").value;
  const signal = restart("long");
  busy("long", "reading");
  try {
    let answer;
    try {
      answer = await api("/api/load", { text }, signal);
    } catch (error) { // a file that names no family (a LinkedIn export): the chosen one
      if (!/family: is missing/.test(error.message)) throw error;
      answer = await api("/api/load", { text, family: $("family").value }, signal);
    }
    loaded = answer.puzzles;
    $("which").hidden = loaded.length < 2;
    $("which").innerHTML = loaded.map((p, i) => `<option value="${i}">${i + 1}. ${escapeHtml(p.id || p.name || p.family)}</option>`).join("");
    showError("");
    setPuzzle(loaded[0]);
  } catch (error) {
    if (!aborted(error)) showError(error.message);
  } finally { if (!signal.aborted) idle("long"); }
});
$("which").addEventListener("change", () => setPuzzle(loaded[Number($("which").value)]));

let jsonTimer = null;
$("json").addEventListener("input", () => {
  clearTimeout(jsonTimer);
  jsonTimer = setTimeout(() => {
    let parsed;
    try { parsed = JSON.parse($("json").value); } catch (error) { showError(`puzzle JSON: ${error.message}`); return; }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) { showError("puzzle JSON: expected an object"); return; }
    state.puzzle = parsed;
    changed(true);
  }, DEBOUNCE_MS);
});

// A family's own fields: Tango's signs, a path puzzle's clues and doors (the grid families'
// cells are edited on the board; their rules in the JSON above).
const EXTRAS = {
  tango: [{
    key: "signs", label: "Signs, one a line: row col row col = or x (from 0)", rows: 4,
    show: (p) => (p.signs || []).map((s) => s.join(" ")).join("\n"),
    read: (text) => text.split("\n").filter((l) => l.trim()).map((line, i) => {
      const parts = line.trim().split(/[\s,]+/);
      const numbers = parts.slice(0, 4).map(Number);
      if (parts.length !== 5 || numbers.some((n) => !Number.isInteger(n)) || !["=", "x"].includes(parts[4])) {
        throw new Error(`signs: line ${i + 1}: expected row col row col = or x`);
      }
      return [...numbers, parts[4]];
    }),
  }],
  path: [
    { key: "row_clues", label: "Row clues (comma separated, blank: none)", show: (p) => clues(p.row_clues), read: readClues("row_clues") },
    { key: "col_clues", label: "Column clues", show: (p) => clues(p.col_clues), read: readClues("col_clues") },
    {
      key: "doors", label: "Doors: row col side (N, S, E, W); …", show: (p) => (p.doors || []).map((d) => d.join(" ")).join("; "),
      read: (text) => text.split(";").filter((d) => d.trim()).map((door, i) => {
        const [r, c, side] = door.trim().split(/\s+/);
        if (!Number.isInteger(Number(r)) || !Number.isInteger(Number(c)) || !/^[NSEW]$/i.test(side || "")) {
          throw new Error(`doors: door ${i + 1}: expected row col side`);
        }
        return [Number(r), Number(c), side.toUpperCase()];
      }),
    },
  ],
};
function clues(list) { return (list || []).map((c) => (c === null ? "" : c)).join(","); }
function readClues(key) {
  return (text) => text.split(",").map((c, i) => {
    if (!c.trim()) return null;
    const n = Number(c);
    if (!Number.isInteger(n)) throw new Error(`${key}: item ${i + 1} is not a whole number`);
    return n;
  });
}

let extrasFamily = null;
function syncForms() {
  const p = state.puzzle;
  if (document.activeElement !== $("json")) $("json").value = JSON.stringify(p, null, 1);
  const fields = EXTRAS[p.family] || [];
  if (extrasFamily !== p.family) {
    extrasFamily = p.family;
    $("extras").className = "extras";
    $("extras").innerHTML = fields.map((f) => `<label>${escapeHtml(f.label)}`
      + (f.rows ? `<textarea data-key="${f.key}" rows="${f.rows}" spellcheck="false"></textarea>` : `<input data-key="${f.key}">`)
      + "</label>").join("");
    for (const f of fields) {
      const input = $("extras").querySelector(`[data-key="${f.key}"]`);
      input.addEventListener("input", () => {
        try { state.puzzle[f.key] = f.read(input.value); showError(""); changed(); } catch (error) { showError(error.message); }
      });
    }
  }
  for (const f of fields) {
    const input = $("extras").querySelector(`[data-key="${f.key}"]`);
    if (document.activeElement !== input) input.value = f.show(p);
  }
}

// ---------------------------------------------------------------------------------------------
// the bank
// ---------------------------------------------------------------------------------------------

async function listBank() {
  const answer = await api("/api/bank?limit=50");
  $("bank-list").querySelector("tbody").innerHTML = answer.entries.map((e) => `<tr data-ref="${escapeHtml(e.ref)}">`
    + `<td><code>${escapeHtml(e.ref)}</code></td><td>${escapeHtml(e.family)} ${e.rows}x${e.cols}</td>`
    + `<td>${escapeHtml(e.level)}</td><td>${e.difficulty}</td><td>${escapeHtml((e.published || "").slice(0, 10))}</td>`
    + `<td><button data-act="open">Open</button> <button data-act="${e.published ? "unpublish" : "publish"}">${e.published ? "Unpublish" : "Publish"}</button></td></tr>`).join("");
  $("bank-note").textContent = `${answer.total} in ${state.about.bank}`;
  state.bankEntries = Object.fromEntries(answer.entries.map((e) => [e.ref, e]));
}

$("save").addEventListener("click", () => long("saving", "/api/bank", { puzzle: state.puzzle }, async (answer) => {
  await listBank();
  $("bank-note").textContent = `${answer.added ? "saved" : "already in the bank"} as ${answer.entry.ref}`;
}));
$("bank-list").addEventListener("click", async (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  const ref = button.closest("tr").dataset.ref;
  try {
    if (button.dataset.act === "open") {
      const { solution, meta, ...puzzle } = state.bankEntries[ref].puzzle;
      setPuzzle(puzzle);
      return;
    }
    await api(`/api/bank/${encodeURIComponent(ref)}/${button.dataset.act}`, {});
    await listBank();
  } catch (error) { showError(error.message); }
});

// ---------------------------------------------------------------------------------------------
// start
// ---------------------------------------------------------------------------------------------

async function start() {
  try {
    const [about, families] = await Promise.all([api("/api/about"), api("/api/families")]);
    state.about = about;
    $("version").textContent = `grader ${about.version}`;
    for (const f of families) state.families[f.name] = f;
    $("family").innerHTML = families.map((f) => `<option value="${f.name}">${escapeHtml(f.title)}</option>`).join("");
    $("family").value = families.some((f) => f.name === "sudoku") ? "sudoku" : families[0].name;
    fillFamily();
    if (about.bank) { $("bank").hidden = false; await listBank(); }
    setPuzzle(structuredClone(family().example));
  } catch (error) { showError(error.message); }
}
start();
