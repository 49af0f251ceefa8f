// The play page: sends actions to the server, which runs the game and writes the record.
"use strict";

(function () {
  const canvas = document.getElementById("maze");
  const ctx = canvas.getContext("2d");
  const finish = document.getElementById("finish");
  const msg = document.getElementById("message");
  const modeSel = document.getElementById("mode");
  const radiusIn = document.getElementById("radius");
  let pic = null, s = 1, st = null, base = 0, stamp = 0;
  let queue = Promise.resolve(), pending = 0;

  const ABS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W",
                w: "N", d: "E", s: "S", a: "W" };
  const ROBOT = { ArrowLeft: "L", ArrowUp: "F", ArrowRight: "R", a: "L", w: "F", d: "R" };

  function setPending(d) {
    pending += d;
    document.body.dataset.pending = String(pending);
  }

  function draw() {
    RM.drawPicture(ctx, pic, s);
    RM.drawGoals(ctx, pic, s, 0.35);
    if (st.finished && st.score) {
      RM.drawHeat(ctx, pic, s, st.score.heat, st.score.heat_max);
    }
    RM.drawStart(ctx, s, st.trail[0] || st.position, pic.cell.size);
    RM.drawTrail(ctx, s, st.trail, 0.3 * pic.pos.scale);
    RM.drawFog(ctx, pic, s, st.finished ? null : st.visible);
    // the goal stays marked above the fog: the player always knows where to go
    RM.drawGoals(ctx, pic, s, 0.6);
    RM.drawHere(ctx, s, st.position, st.heading, pic.pos.scale === 2 ? 1 : pic.cell.size);
  }

  function showStats() {
    document.getElementById("walk").textContent = "maze " + st.walk + " (" + st.mode + ")";
    document.getElementById("moves").textContent = "moves " + st.moves;
    document.getElementById("bumps").textContent = "bumps " + st.bumps;
    base = st.elapsed;
    stamp = performance.now();
    tick();
  }

  function tick() {
    if (!st) { return; }
    const running = !st.finished && st.moves + st.bumps > 0;
    const t = running ? base + (performance.now() - stamp) / 1000 : st.elapsed;
    document.getElementById("timer").textContent = "time " + t.toFixed(1) + " s";
  }

  function showFinish() {
    if (!st.finished || !st.score) { finish.className = "hidden"; finish.innerHTML = ""; return; }
    const m = st.score.summary;
    const rec = st.record;
    finish.innerHTML =
      "<b id='finished'>Goal reached!</b> " + m.moves + " moves (optimal " + m.optimal +
      ", extra moves <b id='extra'>" + m.extra_moves + "</b>, efficiency " + m.efficiency.toFixed(2) +
      "), bumps " + m.bumps + ", time " + m.duration.toFixed(1) + " s.<br>" +
      "wrong turns " + m.wrong_turns + ", revisits " + m.revisits + ", dead ends entered " +
      m.dead_ends_entered + "; " + m.sections_with_error + " of " + m.sections + " sections with error." +
      "<br>Errors per section (the maze is coloured by them: white none, red most):" +
      RM.sectionTable(st.score.sections) +
      "Saved as <code id='recname'>" + RM.esc(rec.name) + "</code>: " +
      "<a href='/records/" + rec.index + ".jsonl'>download</a> &middot; " +
      "<a id='replayit' href='/replay?record=" + rec.index + "'>replay</a><br>" +
      "<button type='button' id='next2'>Next maze</button> " +
      "<button type='button' id='hide'>Hide</button>";
    finish.className = "";
    document.getElementById("next2").onclick = () => newWalk(true);
    document.getElementById("hide").onclick = () => { finish.className = "hidden"; };
  }

  function apply(data) {
    if (data.picture) {
      pic = data.picture;
      s = RM.setup(canvas, pic);
    }
    st = data;
    if (modeSel.value !== st.mode) { modeSel.value = st.mode; }
    radiusIn.value = st.radius;
    draw();
    showStats();
    showFinish();
  }

  // Actions go out one at a time, in order: the server's record is the truth.
  function send(path, body) {
    setPending(1);
    queue = queue.then(() => RM.api(path, body)).then((data) => {
      msg.textContent = "";
      apply(data);
    }).catch((err) => { msg.textContent = err.message; })
      .finally(() => setPending(-1));
    return queue;
  }

  function act(a) { if (st && !st.finished) { send("/api/move", { action: a }); } }

  function newWalk(next) {
    const radius = parseInt(radiusIn.value, 10);
    send("/api/new", { mode: modeSel.value, radius: isNaN(radius) ? 1 : radius, next: next });
    canvas.focus();
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target === radiusIn || ev.target === modeSel) { return; }
    const map = st && st.controls === "robot" ? ROBOT : ABS;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const a = map[key];
    if (a) { ev.preventDefault(); act(a); }
  });
  for (const b of document.querySelectorAll("#pad button")) {
    b.addEventListener("click", () => { act(b.dataset.act); canvas.focus(); });
  }
  document.getElementById("next").onclick = () => newWalk(true);
  document.getElementById("again").onclick = () => newWalk(false);
  modeSel.onchange = () => newWalk(false);
  setInterval(tick, 100);

  setPending(1);
  RM.api("/api/state").then((data) => {
    for (const m of data.modes) {
      const o = document.createElement("option");
      o.value = m;
      o.textContent = m;
      modeSel.appendChild(o);
    }
    apply(data);
    canvas.focus();
  }).catch((err) => { msg.textContent = err.message; }).finally(() => setPending(-1));
}());
