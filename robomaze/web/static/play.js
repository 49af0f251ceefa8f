// The play page: the server runs the game and writes the record; the page
// shows each key at once (predicted on the walls it knows) and reconciles
// with the server's answers, which always win.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $("maze"), ctx = canvas.getContext("2d"), view = $("view"), side = $("side");
  const finish = $("finish"), showScore = $("showscore"), msg = $("message"), live = $("live");
  const opts = $("options"), optBtn = $("optbtn");
  const modeSel = $("mode"), radiusIn = $("radius"), genSel = $("gen"), sizeIn = $("size");
  const seedIn = $("seedin"), ctrlSel = $("controls"), palSel = $("palette");
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  // each tab is one player: the newest tab owns the game, an older one is told
  const TAB = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const query = new URLSearchParams(location.search);

  let pic = null, st = null, s = 8, zoom = 1, cam = [0, 0];
  let queue = [], sent = [], sending = false, chain = Promise.resolve(), busy = 0;
  let gone = false, elsewhere = false, paused = false, finishHidden = false;
  let t0 = null, pausedAt = 0, pausedTotal = 0, frozen = null, pred = null;
  // the hint on show (picture squares) and the time of one asked for while moves are queued
  let hint = null, hintTimer = null, wantHint = null;
  const HINT_MS = 4000;

  const ABS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W",
                w: "N", d: "E", s: "S", a: "W" };
  const ROBOT = { ArrowLeft: "L", ArrowUp: "F", ArrowRight: "R", a: "L", w: "F", d: "R" };
  const STEP = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
  const HEADING = { E: 0, N: 90, W: 180, S: 270 };
  const SIDE = { 0: "E", 90: "N", 180: "W", 270: "S" };
  const NAMES = { N: "north", E: "east", S: "south", W: "west", F: "forward", L: "left turn",
                  R: "right turn", U: "undo" };

  function sync() {
    const b = document.body.dataset;
    b.pending = String(busy + queue.length);
    b.gone = gone ? "1" : "0";
    b.elsewhere = elsewhere ? "1" : "0";
    b.paused = paused ? "1" : "0";
    b.finished = st && st.finished ? "1" : "0";
  }

  function focusMaze() { canvas.focus({ preventScroll: true }); }
  function say(text) { live.textContent = text; }

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

  function tick() { $("timer").textContent = "time " + shownTime().toFixed(1) + " s"; }

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

  function fail(err) {
    if (err.gone) {
      gone = true;
      frozen = clientT();
      queue = [];
      msg.textContent = "The server has stopped: your walk so far is saved in its record " +
        "(marked unfinished). Start robomaze play again to go on.";
      say("the server has stopped; the clock is stopped");
      tick();
    } else if (err.elsewhere) {
      elsewhere = true;
      queue = [];
      msg.textContent = "This game is open in another tab. ";
      const b = document.createElement("button");
      b.type = "button";
      b.id = "playhere";
      b.textContent = "Play here";
      b.onclick = () => { elsewhere = false; msg.textContent = ""; load(); };
      msg.appendChild(b);
    } else {
      msg.textContent = err.message;
    }
    sync();
    draw();
  }

  function pump() {
    if (sending || queue.length === 0 || gone || elsewhere) { return; }
    sending = true;
    // 40 moves with times of hours stay under the server's 1024-byte body limit
    sent = queue.splice(0, 40);
    serial(() => RM.api("/api/move", { moves: sent, tab: TAB })).then((data) => {
      sent = [];
      apply(data);
      announce(data);
    }).catch((err) => { sent = []; fail(err); })
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

  function drawHint() {
    if (!hint || !st) { return; }
    const at = (q) => [(q[1] + 0.5) * s, (q[0] + 0.5) * s];
    const cellPx = s * squaresPerCell();
    ctx.save();
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = RM.HINT;
    ctx.lineWidth = Math.max(2, cellPx * 0.18);
    ctx.setLineDash([Math.max(3, cellPx * 0.3), Math.max(3, cellPx * 0.25)]);
    ctx.beginPath();
    ctx.moveTo(...at(st.position));
    for (const q of hint) { ctx.lineTo(...at(q)); }
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = RM.HINT;
    ctx.strokeStyle = "#000";
    ctx.lineWidth = 1;
    for (const q of hint) {
      const [x, y] = at(q);
      ctx.beginPath();
      ctx.arc(x, y, Math.max(2.5, cellPx * 0.2), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    ctx.restore();
  }

  function enqueue(a) {
    if (!st || st.finished || gone || elsewhere || paused) { return; }
    if (t0 === null) { t0 = performance.now(); pausedTotal = 0; }
    queue.push([a, Math.round(clientT() * 1000) / 1000]);
    predict();
    draw();
    sync();
    pump();
  }

  function announce(data) {
    const out = data.outcomes || [data.outcome];
    const last = out[out.length - 1];
    if (last === "goal") {
      say("Goal reached in " + data.moves + " moves" + (data.hints ? " with " + data.hints +
          (data.hints === 1 ? " hint" : " hints") : ""));
    }
    else if (last === "bump") {
      say("bump: a wall");
      canvas.classList.add("bump");
      setTimeout(() => canvas.classList.remove("bump"), 250);
    }
    else if (last === "undone") { say("move taken back"); }
    else if (last === "moved") { say("moves " + data.moves); }
  }

  function resetWalk() {
    queue = [];
    wantHint = null;
    clearHint();
    t0 = null; pausedTotal = 0; paused = false; frozen = null; finishHidden = false;
    $("pause").textContent = "Pause";
    $("pause").setAttribute("aria-pressed", "false");
  }

  function newWalk(next, extra) {
    if (gone || elsewhere) { return; }
    queue = [];
    const body = Object.assign({ next: next, tab: TAB }, extra || {});
    serial(() => RM.api("/api/new", body)).then((data) => {
      resetWalk();
      msg.textContent = "";
      apply(data);
      say("maze " + data.walk + ", " + data.mode + " mode");
    }).catch(fail);
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
    const extra = [], w = walls(), k = pic.pos.scale;
    for (const [a] of sent.concat(queue)) {
      if (a === "U") { break; }
      if (a === "L" || a === "R") { h = (h + (a === "L" ? 90 : 270)) % 360; continue; }
      const sideName = a === "F" ? SIDE[h] : a, d = STEP[sideName];
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
  // under 12 px is drawn at 12 px and the view follows the player.
  function layout() {
    if (!pic) { return; }
    const wide = window.matchMedia("(min-width: 800px)").matches;
    const availW = Math.max(120, view.clientWidth);
    const top = view.getBoundingClientRect().top;
    const below = wide ? 8 : side.offsetHeight + 12;
    const availH = Math.max(160, window.innerHeight - top - below);
    const per = squaresPerCell();
    const fit = Math.floor(Math.min(availW / pic.cols, availH / pic.rows));
    s = Math.max(2, Math.round(Math.max(fit, Math.ceil(12 / per)) * zoom));
    const worldW = pic.cols * s, worldH = pic.rows * s;
    canvas.width = Math.min(worldW, Math.floor(availW));
    canvas.height = Math.min(worldH, Math.floor(availH));
    const follow = worldW > canvas.width || worldH > canvas.height;
    document.body.dataset.camera = follow ? "follow" : "fit";
    document.body.dataset.cellpx = String(s * per);
    document.body.dataset.squarepx = String(s);
  }

  function camera(pos) {
    const worldW = pic.cols * s, worldH = pic.rows * s;
    const cx = (pos[1] + 0.5) * s - canvas.width / 2, cy = (pos[0] + 0.5) * s - canvas.height / 2;
    cam = [Math.max(0, Math.min(worldW - canvas.width, cx)),
           Math.max(0, Math.min(worldH - canvas.height, cy))];
  }

  function zoomBy(f) {
    zoom = Math.max(0.25, Math.min(6, zoom * f));
    layout();
    draw();
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    if (!pic || !st) { return; }
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
    RM.drawPicture(ctx, pic, s, walls());
    if (st.finished && st.score) { RM.drawHeat(ctx, pic, s, st.score.heat, st.score.heat_max); }
    RM.drawGoals(ctx, pic, s, 0.45);
    const trail = st.trail.concat(p.extra);
    RM.drawTrail(ctx, s, trail, pic.pos.scale === 2 ? 0.55 : 0.5);
    RM.drawStart(ctx, pic, s, st.trail[0] || st.position);
    if (st.finished && st.score) { RM.drawSectionNumbers(ctx, pic, s, st.score.sections); }
    drawHint();
    RM.drawHere(ctx, s, p.pos, p.heading);
    const cell = (q) => Math.floor((q - pic.pos.offset) / pic.pos.scale);
    canvas.setAttribute("aria-label", "maze of " + pic.rows + " by " + pic.cols +
      " squares, " + st.mode + " mode; you are at row " + cell(p.pos[0]) + ", column " +
      cell(p.pos[1]) + "; goal at row " + pic.goals[0][0] + ", column " + pic.goals[0][1] +
      "; " + st.moves + " moves" + (st.finished ? "; goal reached" : ""));
  }

  function showStats() {
    $("walk").textContent = "maze " + st.walk + " (" + st.mode + ")";
    $("seed").textContent = st.spec ? st.spec.gen + " " + st.spec.size.join("x") + " seed " + st.spec.seed : "";
    $("moves").textContent = "moves " + st.moves;
    $("bumps").textContent = "bumps " + st.bumps;
    $("hints").textContent = "hints " + (st.hints || 0);
    document.body.dataset.controls = st.controls;
    tick();
  }

  // ------------------------------------------------------------ finish
  function mazeKey() {
    const where = st.spec ? st.spec.gen + "/" + st.spec.size.join("x") + "/" + st.spec.seed : location.host + "/walk" + st.walk;
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
        m.dead_ends_entered + "; " + m.sections_with_error + " of " + m.sections + " sections with error. " +
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
      $("hide").onclick = () => { finishHidden = true; showFinish(); focusMaze(); };
    }
    finish.className = finishHidden ? "hidden" : "";
    showScore.className = finishHidden ? "" : "hidden";
  }
  showScore.onclick = () => { finishHidden = false; showFinish(); };

  // ------------------------------------------------------------ state
  function updateUrl() {
    const q = new URLSearchParams();
    if (st.spec) {
      q.set("gen", st.spec.gen);
      q.set("size", st.spec.size.join("x"));
      q.set("seed", String(st.spec.seed));
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

  function apply(data) {
    if (data.palettes) { RM.usePalettes(data); }
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
    if ((tag === "BUTTON" || tag === "A") && (ev.key === "Enter" || ev.key === " ")) { return; }
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (st && st.finished && (key === "Enter" || key === " " || key === "n")) {
      ev.preventDefault(); newWalk(true); return;
    }
    const cmd = { r: () => newWalk(false), n: () => newWalk(true), u: () => enqueue("U"),
                  Backspace: () => enqueue("U"), h: askHint, p: togglePause, "+": () => zoomBy(1.25),
                  "=": () => zoomBy(1.25), "-": () => zoomBy(0.8) }[key];
    if (cmd) { ev.preventDefault(); cmd(); return; }
    const a = (st && st.controls === "robot" ? ROBOT : ABS)[key];
    if (a) { ev.preventDefault(); enqueue(a); }
  });

  for (const b of document.querySelectorAll("#pad button")) {
    b.addEventListener("click", () => { enqueue(b.dataset.act); focusMaze(); });
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

  // swipes move; two fingers pinch the zoom
  let touch0 = null, pinch0 = null;
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
      if (Math.max(Math.abs(dx), Math.abs(dy)) >= 20) {
        const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "S" : "N");
        const a = st && st.controls === "robot" ? { E: "R", W: "L", N: "F", S: null }[dir] : dir;
        if (a) { enqueue(a); }
      }
    }
    touch0 = null;
    if (ev.touches.length < 2) { pinch0 = null; }
    ev.preventDefault();
  }, { passive: false });

  window.addEventListener("resize", () => { layout(); draw(); });
  setInterval(tick, 100);

  // ------------------------------------------------------------ start
  function wanted() {
    const want = {};
    for (const k of ["gen", "size", "mode", "controls"]) { if (query.get(k)) { want[k] = query.get(k); } }
    for (const k of ["seed", "radius"]) {
      const v = parseInt(query.get(k), 10);
      if (!isNaN(v)) { want[k] = v; }
    }
    return want;
  }

  function differs(want) {
    const spec = st.spec || {};
    return (want.gen !== undefined && want.gen !== spec.gen) ||
      (want.size !== undefined && (!spec.size || want.size.toLowerCase() !== spec.size.join("x"))) ||
      (want.seed !== undefined && want.seed !== spec.seed) ||
      (want.mode !== undefined && want.mode !== st.mode) ||
      (want.radius !== undefined && want.radius !== st.radius) ||
      (want.controls !== undefined && want.controls !== st.controls);
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
        if (!data.choose) { delete want.gen; delete want.size; delete want.seed; }
        if (differs(want)) { newWalk(false, want); }
      }
    }).catch(fail);
  }
  load();
}());
