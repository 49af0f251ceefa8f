// The play page: the server runs the game and writes the record; the page
// shows each key at once (predicted on the walls it knows) and reconciles
// with the server's answers, which always win. A move's answer carries only
// what changed (the new trail steps and squares); the page asks for the
// whole state again when it holds another base than the answer's.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $("maze"), ctx = canvas.getContext("2d"), view = $("view"), side = $("side");
  const finish = $("finish"), showScore = $("showscore"), live = $("live");
  const bannerEl = $("banner"), bannerText = $("bannertext"), bannerButtons = $("bannerbuttons");
  const opts = $("options"), optBtn = $("optbtn");
  const modeSel = $("mode"), radiusIn = $("radius"), genSel = $("gen"), sizeIn = $("size");
  const seedIn = $("seedin"), ctrlSel = $("controls"), palSel = $("palette");
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  // each tab is one player: the newest tab owns the game, an older one is told
  const TAB = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const query = new URLSearchParams(location.search);

  let pic = null, st = null, s = 8, zoom = 1, cam = [0, 0], fitScale = 1;
  let queue = [], sent = [], sending = false, chain = Promise.resolve(), busy = 0;
  let gone = false, elsewhere = false, paused = false, finishHidden = false, back = false;
  let t0 = null, pausedAt = 0, pausedTotal = 0, frozen = null, pred = null;
  let bannerKind = null, runDir = null;
  // the hint on show (picture squares) and the time of one asked for while moves are queued
  let hint = null, hintTimer = null, wantHint = null;
  const HINT_MS = 4000, PING_MS = 400;

  const ABS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W",
                w: "N", d: "E", s: "S", a: "W" };
  const ROBOT = { ArrowLeft: "L", ArrowUp: "F", ArrowRight: "R", a: "L", w: "F", d: "R" };
  const STEP = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
  const HEADING = { E: 0, N: 90, W: 180, S: 270 };
  const SIDE = { 0: "E", 90: "N", 180: "W", 270: "S" };
  const WORD = { N: "north", E: "east", S: "south", W: "west" };

  function sync() {
    const b = document.body.dataset;
    // a run in progress is pending too: its next step goes out on this answer
    b.pending = String(busy + queue.length + (runDir ? 1 : 0));
    b.gone = gone ? "1" : "0";
    b.elsewhere = elsewhere ? "1" : "0";
    b.paused = paused ? "1" : "0";
    b.finished = st && st.finished ? "1" : "0";
    b.banner = bannerKind || "";
  }

  function focusMaze() { canvas.focus({ preventScroll: true }); }
  function say(text) { live.textContent = text; }

  // ------------------------------------------------------------ banner
  // One place for what must be seen: fixed at the top, the page moved down by
  // its height so it covers nothing.
  function banner(kind, text, buttons) {
    bannerKind = kind;
    bannerText.textContent = text;
    bannerButtons.textContent = "";
    for (const [id, label, fn] of buttons || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = label;
      b.onclick = fn;
      bannerButtons.appendChild(b);
    }
    bannerEl.className = kind === "finish" ? "finish" : kind === "info" ? "" : "error";
    placeBanner();
    sync();
  }

  function clearBanner(kind) {
    if (kind && bannerKind !== kind) { return; }
    bannerKind = null;
    bannerEl.className = "hidden";
    placeBanner();
    sync();
  }

  function placeBanner() {
    const h = bannerKind ? bannerEl.offsetHeight : 0;
    document.body.style.paddingTop = h ? h + "px" : "";
    layout();
    draw();
  }

  // ------------------------------------------------------------ clock
  function clientT() {
    if (t0 === null) { return 0; }
    const now = paused ? pausedAt : performance.now();
    return Math.max(0, (now - t0 - pausedTotal) / 1000);
  }

  function shownTime() {
    if (!st) { return 0; }
    if (st.finished) { return st.score ? st.score.summary.duration : st.elapsed; }
    if (frozen !== null) { return frozen; }
    return clientT();
  }

  // the clock's text is written only when it changes: rewriting the same text
  // ten times a second repainted the page for nothing (an idle page cost
  // headless Chromium 3-4x the CPU: benchmarks/bench_web_idle.py, round 17)
  let shownText = "";
  function tick() {
    const text = "time " + shownTime().toFixed(1) + " s";
    if (text !== shownText) { shownText = text; $("timer").textContent = text; }
  }

  function togglePause() {
    if (!st || st.finished || gone) { return; }
    paused = !paused;
    if (paused) { pausedAt = performance.now(); } else if (t0 !== null) { pausedTotal += performance.now() - pausedAt; }
    $("pause").textContent = paused ? "Resume" : "Pause";
    $("pause").setAttribute("aria-pressed", String(paused));
    say(paused ? "paused" : "resumed");
    sync();
    draw();
  }

  // ------------------------------------------------------------ requests
  // every request goes out after the previous one: the server's record is the truth
  function serial(fn) {
    busy += 1;
    sync();
    const p = chain.then(fn).finally(() => { busy -= 1; sync(); });
    chain = p.catch(() => {});
    return p;
  }

  function stopped() {
    if (gone) { return; }
    gone = true;
    frozen = clientT();
    // the record ends with the last move the server answered: draw that
    queue = [];
    sent = [];
    pred = null;
    banner("gone", "The server has stopped: your walk so far is saved in its record " +
      "(marked unfinished). Start robomaze play again: this page then offers to continue it.");
    say("the server has stopped; the clock is stopped");
    tick();
    draw();
  }

  function fail(err) {
    if (err.gone) {
      stopped();
    } else if (err.elsewhere) {
      elsewhere = true;
      queue = [];
      pred = null;
      banner("elsewhere", "This game is open in another tab.", [["playhere", "Play here", () => {
        elsewhere = false; clearBanner(); load();
      }]]);
    } else {
      banner("refused", err.message, [["dismiss", "OK", () => { clearBanner(); focusMaze(); }]]);
    }
    sync();
    draw();
  }

  // The heartbeat: a stopped server is noticed within a ping, not at the next
  // key; a server that comes back is offered to reconnect.
  function heartbeat() {
    if (elsewhere || document.hidden) { return; }
    RM.api("/api/ping", undefined, 3000).then(() => {
      if (gone && !back) {
        back = true;
        banner("back", "The server is running again.", [["reconnect", "Reconnect", () => location.reload()]]);
      }
    }).catch((err) => { if (err.gone) { stopped(); } });
  }

  function pump() {
    if (sending || queue.length === 0 || gone || elsewhere) { return; }
    sending = true;
    // 40 moves with times of hours stay under the server's 1024-byte body limit
    sent = queue.splice(0, 40);
    serial(() => RM.api("/api/move", { moves: sent, tab: TAB })).then((data) => {
      sent = [];
      apply(data);
      if (runDir) { runOn(data); if (!runDir) { announce(data); } } else { announce(data); }
    }).catch((err) => { sent = []; runDir = null; fail(err); })
      .finally(() => {
        sending = false;
        pump();
        if (!sending) { sendHint(); }
      });
  }

  // ------------------------------------------------------------ hints
  // A hint goes to the server after the moves queued before it, so it is
  // asked from where those moves lead; the server records it and answers
  // with the next cells of the shortest route (nothing else is revealed).
  function askHint() {
    if (!st || st.finished || gone || elsewhere || paused) { return; }
    if (t0 === null) { t0 = performance.now(); pausedTotal = 0; }
    wantHint = Math.round(clientT() * 1000) / 1000;
    if (!sending && queue.length === 0) { sendHint(); }
  }

  function sendHint() {
    if (wantHint === null || gone || elsewhere) { return; }
    const t = wantHint;
    wantHint = null;
    serial(() => RM.api("/api/hint", { t: t, tab: TAB })).then((data) => {
      apply(data);
      showHint(data.hint || []);
    }).catch(fail);
  }

  function showHint(cells) {
    clearTimeout(hintTimer);
    hint = cells.length ? cells : null;
    document.body.dataset.hint = String(cells.length);
    say(cells.length ? "hint: " + hintWords(st.position, cells) : "no hint: you are at the goal");
    draw();
    hintTimer = setTimeout(clearHint, HINT_MS);
  }

  function clearHint() {
    clearTimeout(hintTimer);
    hint = null;
    document.body.dataset.hint = "0";
    draw();
  }

  // "east 2, south 3": the hint as words for a screen reader
  function hintWords(from, cells) {
    const parts = [];
    let prev = from;
    for (const c of cells) {
      const dr = Math.sign(c[0] - prev[0]), dc = Math.sign(c[1] - prev[1]);
      const name = dr < 0 ? "north" : dr > 0 ? "south" : dc > 0 ? "east" : "west";
      if (parts.length && parts[parts.length - 1][0] === name) { parts[parts.length - 1][1] += 1; }
      else { parts.push([name, 1]); }
      prev = c;
    }
    return parts.map((p) => p[0] + " " + p[1]).join(", ");
  }

  // The hint: the palette's hint colour, dashed, with a dot on each cell
  // (a pattern as well as a colour: no direction line is dashed).
  function drawHint() {
    if (!hint || !st) { return; }
    const at = (q) => [(q[1] + 0.5) * s, (q[0] + 0.5) * s];
    const cellPx = s * squaresPerCell();
    const colour = RM.hintColor();
    ctx.save();
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = Math.max(4, cellPx * 0.18 + 3);
    ctx.beginPath();
    ctx.moveTo(...at(st.position));
    for (const q of hint) { ctx.lineTo(...at(q)); }
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(2, cellPx * 0.18);
    ctx.setLineDash([Math.max(3, cellPx * 0.3), Math.max(3, cellPx * 0.25)]);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colour;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 1.5;
    for (const q of hint) {
      const [x, y] = at(q);
      ctx.beginPath();
      ctx.arc(x, y, Math.max(3, cellPx * 0.2), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    ctx.restore();
  }

  function enqueue(a) {
    if (!st || st.finished || gone || elsewhere || paused) { return false; }
    if (t0 === null) { t0 = performance.now(); pausedTotal = 0; }
    // a move starts this walk afresh: the offer to continue the old one goes
    if (bannerKind === "resume") { clearBanner("resume"); }
    queue.push([a, Math.round(clientT() * 1000) / 1000]);
    predict();
    draw();
    sync();
    pump();
    return true;
  }

  // ------------------------------------------------------------ runs
  // A run goes on along a corridor, round its bends, to the next junction,
  // dead end or the goal, one move per cell. It is walked step by step on
  // the server's answers, so in the fog modes each step sees what it reveals.

  // Whether the way from pos towards side is open on the walls the page knows
  // (cell level: the wall square between the cells).
  function openSide(pos, side, w) {
    const d = STEP[side], r = pos[0] + d[0], c = pos[1] + d[1];
    return r >= 0 && c >= 0 && r < pic.rows && c < pic.cols && w[r][c] === ".";
  }

  function isGoal(pos) {
    const k = pic.cell, o = pic.pos;
    const at = (q) => pic.level === "cell" ? (q - o.offset) / o.scale : Math.floor((q - k.offset) / k.scale);
    return pic.goals.some((g) => g[0] === at(pos[0]) && g[1] === at(pos[1]));
  }

  function runStep() {
    if (!runDir || !st || st.finished || gone || elsewhere || paused) { runDir = null; return; }
    if (queue.length) { return; }
    const robot = st.controls === "robot";
    const pos = st.position, w = walls();
    if (robot && SIDE[st.heading] !== runDir) { runDir = null; return; }
    if (!openSide(pos, runDir, w)) { runDir = null; return; }
    enqueue(robot ? "F" : runDir);
  }

  // After each answer of a run: go on if the new cell is a corridor.
  function runOn(data) {
    if (!runDir) { return; }
    setTimeout(sync, 0);
    const out = data.outcomes || [data.outcome];
    const last = out[out.length - 1];
    if (last !== "moved" || st.finished || isGoal(st.position)) { runDir = null; return; }
    const opposite = { N: "S", S: "N", E: "W", W: "E" }[runDir], w = walls();
    const exits = ["N", "E", "S", "W"].filter((d) => d !== opposite && openSide(st.position, d, w));
    if (exits.length !== 1) { runDir = null; return; }
    if (exits[0] !== runDir && st.controls === "robot") { runDir = null; return; }
    runDir = exits[0];
    runStep();
  }

  function run(side) {
    if (!st || st.finished || !side) { return; }
    runDir = side;
    say("running " + WORD[side]);
    runStep();
  }

  function announce(data) {
    const out = data.outcomes || [data.outcome];
    const last = out[out.length - 1];
    if (last === "goal") {
      say("Goal reached in " + data.moves + " moves" + (data.hints ? " with " + data.hints +
          (data.hints === 1 ? " hint" : " hints") : ""));
    }
    else if (last === "bump") {
      say("bump: a wall" + (st.mode !== "full" ? "; " + whereWords() : ""));
      canvas.classList.add("bump");
      setTimeout(() => canvas.classList.remove("bump"), 250);
    }
    else if (last === "undone") { say("move taken back; " + whereWords()); }
    else if (last === "moved" || last === "turned") {
      // in the fog modes the way on is told after each move
      say(st.mode !== "full" ? whereWords() : "moves " + data.moves);
    }
  }

  // "row 3, column 4, facing east; open: north, east"
  function whereWords() {
    if (!st || !pic) { return ""; }
    const p = pred ? pred.pos : st.position;
    const cell = (q) => Math.floor((q - pic.pos.offset) / pic.pos.scale);
    const w = walls();
    const open = ["N", "E", "S", "W"].filter((d) => openSide(p, d, w)).map((d) => WORD[d]);
    const unknown = ["N", "E", "S", "W"].filter((d) => {
      const r = p[0] + STEP[d][0], c = p[1] + STEP[d][1];
      return r >= 0 && c >= 0 && r < pic.rows && c < pic.cols && w[r][c] === "?";
    }).map((d) => WORD[d]);
    return "row " + cell(p[0]) + ", column " + cell(p[1]) + ", facing " + WORD[SIDE[st.heading]] +
      "; open: " + (open.length ? open.join(", ") : "none") +
      (unknown.length ? "; unknown: " + unknown.join(", ") : "") +
      (st.finished ? "; at the goal" : "");
  }

  function resetWalk() {
    queue = [];
    wantHint = null;
    clearHint();
    t0 = null; pausedTotal = 0; paused = false; frozen = null; finishHidden = false;
    $("pause").textContent = "Pause";
    $("pause").setAttribute("aria-pressed", "false");
  }

  function newWalk(next, extra, fromUrl) {
    if (gone || elsewhere) { return; }
    queue = [];
    const body = Object.assign({ next: next, tab: TAB }, extra || {});
    serial(() => RM.api("/api/new", body)).then((data) => {
      resetWalk();
      clearBanner();
      apply(data);
      say("maze " + data.walk + ", " + data.mode + " mode");
      if (fromUrl && data.resume) { offerResume(data); }
    }).catch((err) => {
      if (fromUrl && !err.gone && !err.elsewhere) {
        // the old maze stays; say so instead of silently rewriting the link
        banner("refused", "The link's maze was refused (" + err.message + "); this is maze " +
          st.walk + " instead.", [["dismiss", "OK", () => { clearBanner(); focusMaze(); }]]);
      } else { fail(err); }
    });
    focusMaze();
  }

  // ------------------------------------------------------------ prediction
  function walls() { return (st && st.walls) || pic.walls; }

  // Where the queued keys take the player on the walls the page knows; stops
  // at the first it cannot tell (a hidden square, an undo).
  function predict() {
    pred = null;
    if (!st || !pic) { return; }
    let pos = st.position.slice(), h = st.heading;
    const extra = [], w = walls();
    for (const [a] of sent.concat(queue)) {
      if (a === "U") { break; }
      if (a === "L" || a === "R") { h = (h + (a === "L" ? 90 : 270)) % 360; continue; }
      const sideName = a === "F" ? SIDE[h] : a, d = STEP[sideName], k = pic.pos.scale;
      let ok = true, unknown = false;
      for (let i = 1; i <= k; i++) {
        const r = pos[0] + d[0] * i, c = pos[1] + d[1] * i;
        if (r < 0 || c < 0 || r >= pic.rows || c >= pic.cols) { ok = false; break; }
        const ch = w[r][c];
        if (ch === "?") { unknown = true; break; }
        if (ch === "#") { ok = false; break; }
      }
      if (unknown) { break; }
      if (ok) {
        pos = [pos[0] + d[0] * k, pos[1] + d[1] * k];
        extra.push(pos);
        h = HEADING[sideName];
      }
    }
    pred = { pos: pos, heading: h, extra: extra };
  }

  // ------------------------------------------------------------ layout
  function squaresPerCell() { return pic.pos.scale === 2 ? 1 : pic.cell.size; }

  // The maze fills the space left on screen; a maze whose cells would be
  // under 12 px is drawn at 12 px and the view follows the player. At the
  // finish the whole maze is shown, map first (shrunk by CSS if it must).
  function layout() {
    if (!pic) { return; }
    const wide = window.matchMedia("(min-width: 800px)").matches;
    const done = st && st.finished && !finishHidden;
    const availW = Math.max(120, view.clientWidth);
    const top = view.getBoundingClientRect().top + window.scrollY;
    const below = wide || done ? 8 : side.offsetHeight + 8;
    const availH = Math.max(done ? 300 : 160, window.innerHeight - top - below);
    const per = squaresPerCell();
    const fit = Math.min(availW / pic.cols, availH / pic.rows);
    if (done && zoom === 1) {
      s = Math.max(1, Math.floor(fit));
      canvas.width = pic.cols * s;
      canvas.height = pic.rows * s;
      // a maze bigger than the screen at 1 px a square is scaled down whole
      fitScale = Math.min(1, fit / s);
      canvas.style.width = fitScale < 1 ? Math.floor(canvas.width * fitScale) + "px" : "";
      canvas.style.height = fitScale < 1 ? Math.floor(canvas.height * fitScale) + "px" : "";
      document.body.dataset.camera = "fit";
    } else {
      canvas.style.width = "";
      canvas.style.height = "";
      fitScale = 1;
      // at the finish a zoom starts from the whole maze; in a walk from 12 px cells
      const base = done ? Math.max(1, Math.floor(fit)) : Math.max(Math.floor(fit), Math.ceil(12 / per));
      s = Math.max(done ? 1 : 2, Math.round(base * zoom));
      const worldW = pic.cols * s, worldH = pic.rows * s;
      canvas.width = Math.min(worldW, Math.floor(availW));
      canvas.height = Math.min(worldH, Math.floor(availH));
      document.body.dataset.camera = worldW > canvas.width || worldH > canvas.height ? "follow" : "fit";
    }
    document.body.dataset.cellpx = String(s * per);
    document.body.dataset.squarepx = String(s);
  }

  // Whole pixels only: a camera on a half pixel blurs every wall into grey hairlines.
  function camera(pos) {
    const worldW = pic.cols * s, worldH = pic.rows * s;
    const cx = (pos[1] + 0.5) * s - canvas.width / 2, cy = (pos[0] + 0.5) * s - canvas.height / 2;
    cam = [Math.round(Math.max(0, Math.min(worldW - canvas.width, cx))),
           Math.round(Math.max(0, Math.min(worldH - canvas.height, cy)))];
  }

  function zoomBy(f) {
    zoom = Math.max(0.25, Math.min(6, zoom * f));
    layout();
    draw();
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    if (!pic || !st) { return; }
    const t1 = performance.now();
    const p = pred || { pos: st.position, heading: st.heading, extra: [] };
    camera(p.pos);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (paused) {
      ctx.fillStyle = RM.FOG;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = "#fff";
      ctx.font = "bold 20px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.fillText("Paused (P to go on)", canvas.width / 2, canvas.height / 2);
      return;
    }
    ctx.setTransform(1, 0, 0, 1, -cam[0], -cam[1]);
    const box = [cam[0], cam[1], canvas.width, canvas.height];
    RM.drawPicture(ctx, pic, s, walls(), box);
    if (st.finished && st.score) { RM.drawHeat(ctx, pic, s, st.score.heat, st.score.heat_max); }
    RM.drawGoals(ctx, pic, s);
    const trail = st.trail.concat(p.extra);
    RM.drawTrail(ctx, s, trail, pic.pos.scale === 2 ? 0.55 : 0.5, box);
    RM.drawStart(ctx, pic, s, st.trail[0] || st.position);
    if (st.finished && st.score) { RM.drawSectionNumbers(ctx, pic, s, st.score.sections); }
    drawHint();
    RM.drawHere(ctx, s, p.pos, p.heading);
    document.body.dataset.goalarrow = RM.drawGoalArrow(ctx, pic, s, box) ? "1" : "0";
    const cell = (q) => Math.floor((q - pic.pos.offset) / pic.pos.scale);
    const [mr, mc] = pic.level === "cell" ? [(pic.rows - 1) / 2, (pic.cols - 1) / 2] : [pic.rows, pic.cols];
    canvas.setAttribute("aria-label", "maze of " + mr + " by " + mc + " cells, " + st.mode +
      " mode; you are at row " + cell(p.pos[0]) + ", column " + cell(p.pos[1]) + "; goal at row " +
      (pic.level === "cell" ? pic.goals[0][0] : pic.goals[0][0] * pic.cell.scale + pic.cell.offset) + ", column " +
      (pic.level === "cell" ? pic.goals[0][1] : pic.goals[0][1] * pic.cell.scale + pic.cell.offset) + "; " +
      st.moves + " moves" + (st.finished ? "; goal reached" : "") + ". Press I to hear which ways are open.");
    RM.drawTimes.push(performance.now() - t1);
    if (RM.drawTimes.length > 400) { RM.drawTimes.shift(); }
  }
  RM.drawTimes = [];
  RM.redraw = draw;
  // what is drawn, for tests and for the curious: the player's square, the
  // scale and the camera (picture pixels)
  RM.view = () => ({ position: pred ? pred.pos : st && st.position, s: s, cam: cam, fitScale: fitScale,
                     rows: pic && pic.rows, cols: pic && pic.cols, goals: pic && pic.goals,
                     cell: pic && pic.cell, level: pic && pic.level, seq: st && st.seq,
                     walls: st && (st.walls || (pic && pic.walls)), trail: st && st.trail });

  function showStats() {
    $("walk").textContent = "maze " + st.walk + " (" + st.mode + ")";
    const sp = st.spec;
    $("seed").textContent = sp ? sp.gen + " " + sp.size.join("x") + " seed " + sp.seed +
      (sp.braid ? " braid " + sp.braid : "") + (sp.corridor ? " corridor " + sp.corridor : "") : "";
    $("moves").textContent = "moves " + st.moves;
    $("bumps").textContent = "bumps " + st.bumps;
    $("hints").textContent = "hints " + (st.hints || 0);
    document.body.dataset.controls = st.controls;
    tick();
  }

  // ------------------------------------------------------------ finish
  function mazeKey() {
    const sp = st.spec;
    const where = sp ? [sp.gen, sp.size.join("x"), sp.seed, sp.braid, sp.placement, sp.corridor || 0, sp.wall || 0].join("/")
      : location.host + "/walk" + st.walk;
    return "robomaze-best:" + where + "/" + st.mode;
  }

  function bestTime(m) {
    let best = null;
    try { best = JSON.parse(localStorage.getItem(mazeKey()) || "null"); } catch (e) { best = null; }
    const isNew = !best || m.duration < best.time;
    if (isNew) {
      try { localStorage.setItem(mazeKey(), JSON.stringify({ time: m.duration, moves: m.moves })); } catch (e) { /* private mode */ }
    }
    return isNew ? "<b id='best'>New best time on this maze!</b>" :
      "Best on this maze: <b id='best'>" + best.time.toFixed(1) + " s</b> (" + best.moves + " moves).";
  }

  function showFinish() {
    if (!st.finished || !st.score) {
      finish.className = "hidden"; finish.innerHTML = ""; showScore.className = "hidden"; return;
    }
    if (finish.dataset.record !== st.record.name) {
      const m = st.score.summary, rec = st.record;
      finish.dataset.record = rec.name;
      finish.innerHTML =
        "<h2 id='finished'>Goal reached!</h2><p>" + m.moves + " moves (optimal " + m.optimal +
        ", extra moves <b id='extra'>" + m.extra_moves + "</b>, efficiency " + m.efficiency.toFixed(2) +
        "), bumps " + m.bumps + ", hints <b id='hintcount'>" + (m.hints || 0) + "</b>, time " + m.duration.toFixed(1) + " s. " + bestTime(m) + "</p>" +
        "<p>wrong turns " + m.wrong_turns + ", revisits " + m.revisits + ", dead ends entered " +
        m.dead_ends_entered + "; <b id='errsections'>" + m.sections_with_error + "</b> of " + m.sections + " sections with error. " +
        "The maze is shaded by each section's error (palest none, dark purple most); the numbers on it are the sections below.</p>" +
        RM.sectionTable(st.score.sections) +
        "<p>Saved as <code id='recname'>" + RM.esc(rec.name) + "</code>: " +
        "<a href='/records/" + rec.index + ".jsonl'>download</a> &middot; " +
        "<a id='replayit' href='/replay?record=" + rec.index + "'>replay</a></p>" +
        "<p class='row'><button type='button' id='next2'>Next maze (Enter)</button> " +
        "<button type='button' id='again2'>Same maze again (R)</button> " +
        "<button type='button' id='hide'>Hide</button></p>";
      $("next2").onclick = () => newWalk(true);
      $("again2").onclick = () => newWalk(false);
      $("hide").onclick = () => { finishHidden = true; showFinish(); layout(); draw(); focusMaze(); };
      banner("finish", "Goal reached in " + m.moves + " moves (" + m.extra_moves + " extra), " +
        m.duration.toFixed(1) + " s.", [["next3", "Next maze", () => newWalk(true)],
                                         ["toscore", "Score", () => { finishHidden = false; showFinish(); finish.scrollIntoView(); }]]);
    }
    finish.className = finishHidden ? "hidden" : "";
    showScore.className = finishHidden ? "" : "hidden";
  }
  showScore.onclick = () => { finishHidden = false; showFinish(); layout(); draw(); };

  // ------------------------------------------------------------ state
  // The URL names the whole world (robomaze.web.worlds: the WorldSpec of the
  // maze), so it re-creates the maze in a server started with other options.
  function updateUrl() {
    const q = new URLSearchParams();
    const sp = st.spec;
    if (sp) {
      q.set("gen", sp.gen);
      q.set("size", sp.size.join("x"));
      q.set("seed", String(sp.seed));
      q.set("braid", String(sp.braid));
      q.set("placement", sp.placement);
      q.set("corridor", String(sp.corridor || 0));
      if (sp.corridor) { q.set("wall", String(sp.wall)); }
    }
    q.set("mode", st.mode);
    if (st.radius !== 1) { q.set("radius", String(st.radius)); }
    if (st.controls !== "arrows") { q.set("controls", st.controls); }
    if (RM.palette !== "okabe-ito") { q.set("palette", RM.palette); }
    if (query.get("token")) { q.set("token", query.get("token")); }
    history.replaceState(null, "", location.pathname + "?" + q.toString());
  }

  function fillForm() {
    if (!opts.classList.contains("hidden")) { return; }
    modeSel.value = st.mode;
    radiusIn.value = st.radius;
    ctrlSel.value = st.controls;
    if (st.spec) {
      genSel.value = st.spec.gen;
      sizeIn.value = st.spec.size.join("x");
      seedIn.value = st.spec.seed;
    }
  }

  function resync() {
    return serial(() => RM.api("/api/state?tab=" + TAB)).then(apply).catch(fail);
  }

  // A delta patches what the page holds: the trail (first trail_keep points
  // kept, trail_add appended) and the squares whose view changed.
  function patch(data) {
    if (!st || data.base !== st.seq) { resync(); return null; }
    const next = Object.assign({}, st, data);
    next.trail = st.trail.slice(0, data.trail_keep).concat(data.trail_add);
    if (data.squares && st.walls) {
      const rows = st.walls.slice();
      const byRow = new Map();
      for (const [i, j, ch] of data.squares) {
        if (!byRow.has(i)) { byRow.set(i, rows[i].split("")); }
        byRow.get(i)[j] = ch;
      }
      for (const [i, chars] of byRow) { rows[i] = chars.join(""); }
      next.walls = rows;
    }
    delete next.delta;
    return next;
  }

  function apply(data) {
    if (data.palettes) { RM.usePalettes(data); }
    if (data.delta) {
      data = patch(data);
      if (data === null) { return; }
    }
    if (data.picture) {
      const same = pic && pic.rows === data.picture.rows && pic.cols === data.picture.cols;
      pic = data.picture;
      if (!same) { layout(); }
    }
    const wasFinished = st ? st.finished : false;
    st = data;
    showFinish();
    if (st.finished !== wasFinished) {
      // the side column widens for the score (or narrows back): the maze refits
      sync();
      layout();
      if (!st.finished) { clearBanner("finish"); }
    }
    predict();
    fillForm();
    draw();
    showStats();
    updateUrl();
    sync();
  }

  // ------------------------------------------------------------ input
  function openOptions() {
    opts.classList.remove("hidden");
    optBtn.setAttribute("aria-expanded", "true");
    (st && st.choose ? genSel : modeSel).focus();
  }

  function closeOptions() {
    opts.classList.add("hidden");
    optBtn.setAttribute("aria-expanded", "false");
    fillForm();
    focusMaze();
  }

  document.addEventListener("keydown", (ev) => {
    // browser shortcuts (Ctrl+S, Cmd+D, Alt+Left...) are the browser's, never moves
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (ev.key !== "Shift") { runDir = null; }       // any key ends a run
    const tag = ev.target.tagName;
    if (ev.key === "Escape") {
      // close what is open and give the keys back to the maze; the Escape
      // itself does nothing else, so the next key is a move again
      if (!opts.classList.contains("hidden")) { closeOptions(); }
      ev.preventDefault();
      focusMaze();
      return;
    }
    if (tag === "SELECT" && ev.key.startsWith("Arrow")) {
      // a list that just closed (Escape on its popup never reaches the page)
      // keeps the focus: its next arrow would silently change the setting.
      // The arrow is the maze's; lists open with Space, Enter or Alt+Down.
      ev.preventDefault();
      focusMaze();
    } else if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      return;
    }
    if ((tag === "BUTTON" || tag === "A" || tag === "SUMMARY") && (ev.key === "Enter" || ev.key === " ")) { return; }
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (st && st.finished && (key === "Enter" || key === " " || key === "n")) {
      ev.preventDefault(); newWalk(true); return;
    }
    const cmd = { r: () => newWalk(false), n: () => newWalk(true), u: () => enqueue("U"),
                  Backspace: () => enqueue("U"), h: askHint, p: togglePause, "+": () => zoomBy(1.25),
                  "=": () => zoomBy(1.25), "-": () => zoomBy(0.8), i: () => say(whereWords()) }[key];
    if (cmd) { ev.preventDefault(); cmd(); return; }
    const robot = st && st.controls === "robot";
    const a = (robot ? ROBOT : ABS)[key];
    if (a && ev.shiftKey && ABS[key]) {
      // Shift+direction runs to the next junction
      ev.preventDefault();
      run(robot ? SIDE[st.heading] : ABS[key]);
      return;
    }
    if (a) { ev.preventDefault(); enqueue(a); }
  });

  // Pad buttons act on press and repeat while held (after 350 ms, every 110 ms);
  // a keyboard press (Enter, Space) is a click with no pointer.
  for (const b of document.querySelectorAll("#pad button")) {
    let timer = null;
    const stop = () => { clearTimeout(timer); clearInterval(timer); timer = null; };
    b.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      stop();
      runDir = null;
      enqueue(b.dataset.act);
      timer = setTimeout(() => {
        timer = setInterval(() => { if (!enqueue(b.dataset.act)) { stop(); } }, 110);
      }, 350);
    });
    for (const e of ["pointerup", "pointerleave", "pointercancel"]) { b.addEventListener(e, stop); }
    b.addEventListener("click", (ev) => { if (ev.detail === 0) { enqueue(b.dataset.act); } focusMaze(); });
    b.addEventListener("contextmenu", (ev) => ev.preventDefault());
  }
  $("next").onclick = () => newWalk(true);
  $("again").onclick = () => newWalk(false);
  $("undo").onclick = () => { enqueue("U"); focusMaze(); };
  $("hint").onclick = () => { askHint(); focusMaze(); };
  $("pause").onclick = () => { togglePause(); focusMaze(); };
  $("zoomin").onclick = () => zoomBy(1.25);
  $("zoomout").onclick = () => zoomBy(0.8);
  optBtn.onclick = () => { if (opts.classList.contains("hidden")) { openOptions(); } else { closeOptions(); } };
  $("optclose").onclick = closeOptions;
  palSel.onchange = () => {
    RM.palette = palSel.value;
    RM.legend($("legend"), false, true);
    draw();
    if (st) { updateUrl(); }
  };
  opts.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const radius = parseInt(radiusIn.value, 10);
    const extra = { mode: modeSel.value, radius: isNaN(radius) ? 1 : radius, controls: ctrlSel.value };
    if (st && st.choose) {
      extra.gen = genSel.value;
      extra.size = sizeIn.value.trim();
      const seed = parseInt(seedIn.value, 10);
      if (!isNaN(seed)) { extra.seed = seed; }
    }
    opts.classList.add("hidden");
    optBtn.setAttribute("aria-expanded", "false");
    newWalk(false, extra);
  });

  // Swipes move (a long one, over a third of the maze's view, runs to the next
  // junction); a double tap runs on in the current heading; two fingers pinch the zoom.
  let touch0 = null, pinch0 = null, lastTap = 0;
  const dist = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  canvas.addEventListener("touchstart", (ev) => {
    if (ev.touches.length === 1) { touch0 = [ev.touches[0].clientX, ev.touches[0].clientY]; }
    else if (ev.touches.length === 2) { touch0 = null; pinch0 = [dist(ev.touches), zoom]; }
    ev.preventDefault();
  }, { passive: false });
  canvas.addEventListener("touchmove", (ev) => {
    if (pinch0 && ev.touches.length === 2) {
      zoom = Math.max(0.25, Math.min(6, pinch0[1] * dist(ev.touches) / pinch0[0]));
      layout();
      draw();
    }
    ev.preventDefault();
  }, { passive: false });
  canvas.addEventListener("touchend", (ev) => {
    if (touch0 && ev.changedTouches.length) {
      const dx = ev.changedTouches[0].clientX - touch0[0], dy = ev.changedTouches[0].clientY - touch0[1];
      const len = Math.max(Math.abs(dx), Math.abs(dy));
      const robot = st && st.controls === "robot";
      if (len >= 20) {
        const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "S" : "N");
        const long = len >= Math.max(150, Math.min(canvas.clientWidth, canvas.clientHeight) / 3);
        if (long && (!robot || dir === "N")) {
          run(robot ? SIDE[st.heading] : dir);
        } else {
          const a = robot ? { E: "R", W: "L", N: "F", S: null }[dir] : dir;
          if (a) { enqueue(a); }
        }
        lastTap = 0;
      } else if (st && !st.finished) {
        const now = performance.now();
        if (now - lastTap < 350) {
          lastTap = 0;
          run(SIDE[st.heading]);
        } else { lastTap = now; }
      }
    }
    touch0 = null;
    if (ev.touches.length < 2) { pinch0 = null; }
    ev.preventDefault();
  }, { passive: false });

  window.addEventListener("resize", () => { placeBanner(); });
  setInterval(tick, 100);
  setInterval(heartbeat, PING_MS);

  // ------------------------------------------------------------ start
  function wanted() {
    const want = {};
    for (const k of ["gen", "size", "mode", "controls", "placement"]) { if (query.get(k)) { want[k] = query.get(k); } }
    for (const k of ["seed", "radius", "corridor", "wall"]) {
      const v = Number(query.get(k));
      if (query.get(k) !== null && query.get(k) !== "") { want[k] = Number.isFinite(v) ? v : query.get(k); }
    }
    if (query.get("braid") !== null && query.get("braid") !== "") {
      const v = Number(query.get("braid"));
      want.braid = Number.isFinite(v) ? v : query.get("braid");
    }
    return want;
  }

  function differs(want) {
    const sp = st.spec || {};
    const has = (k) => want[k] !== undefined;
    return (has("gen") && want.gen !== sp.gen) ||
      (has("size") && (!sp.size || String(want.size).toLowerCase() !== sp.size.join("x"))) ||
      (has("seed") && want.seed !== sp.seed) ||
      (has("braid") && want.braid !== sp.braid) ||
      (has("placement") && want.placement !== sp.placement) ||
      (has("corridor") && want.corridor !== (sp.corridor || 0)) ||
      (has("wall") && (sp.corridor ? want.wall !== sp.wall : want.corridor > 0)) ||
      (has("mode") && want.mode !== st.mode) ||
      (has("radius") && want.radius !== st.radius) ||
      (has("controls") && want.controls !== st.controls);
  }

  function offerResume(data) {
    const r = data.resume;
    banner("resume", "An unfinished walk of this maze is saved (" + r.name + ", " + r.moves +
      " moves, " + r.mode + " mode).", [
      ["continue", "Continue this walk", () => {
        serial(() => RM.api("/api/resume", { record: r.index, tab: TAB })).then((d) => {
          resetWalk();
          clearBanner();
          t0 = performance.now() - d.elapsed * 1000;
          apply(d);
          say("continuing " + r.name + ": " + whereWords());
          focusMaze();
        }).catch(fail);
      }],
      ["fresh", "Start fresh", () => { clearBanner(); focusMaze(); }]]);
  }

  function load() {
    return serial(() => RM.api("/api/state?tab=" + TAB)).then((data) => {
      RM.usePalettes(data);
      RM.palette = query.get("palette") in RM.palettes ? query.get("palette") : data.palette;
      if (modeSel.options.length === 0) {
        for (const m of data.modes) { modeSel.appendChild(new Option(m, m)); }
        for (const g of data.generators) { genSel.appendChild(new Option(g, g)); }
        if (!data.choose) { for (const el of [genSel, sizeIn, seedIn]) { el.disabled = true; } }
        RM.fillPaletteSelect(palSel);
        RM.legend($("legend"), false, true);
      }
      resetWalk();
      if (data.elapsed > 0 && !data.finished) { t0 = performance.now() - data.elapsed * 1000; }
      apply(data);
      focusMaze();
      const want = wanted();
      if (Object.keys(want).length && differs(want)) {
        if (!data.choose) {
          for (const k of ["gen", "size", "seed", "braid", "placement", "corridor", "wall"]) { delete want[k]; }
        }
        if (differs(want)) { newWalk(false, want, true); return; }
      }
      if (data.resume) { offerResume(data); }
    }).catch(fail);
  }
  load();
}());
