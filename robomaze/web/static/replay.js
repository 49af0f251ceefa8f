// The replay page: a recorded walk animated step by step, with the best route on demand.
"use strict";

(function () {
  const canvas = document.getElementById("maze");
  const ctx = canvas.getContext("2d");
  const sel = document.getElementById("record");
  const playBtn = document.getElementById("play");
  const solBtn = document.getElementById("solution");
  const msg = document.getElementById("message");
  let rec = null, pic = null, s = 1, frame = 0, timer = null, showRoute = false;

  // Position after the first k steps (bumps and turns keep the place).
  function positions(k) {
    const pts = [rec.start];
    for (let i = 0; i < k; i++) {
      const p = rec.steps[i].pos, q = pts[pts.length - 1];
      if (p[0] !== q[0] || p[1] !== q[1]) { pts.push(p); }
    }
    return pts;
  }

  function draw() {
    const n = rec.steps.length;
    RM.drawPicture(ctx, pic, s);
    RM.drawGoals(ctx, pic, s, 0.35);
    RM.drawStart(ctx, s, rec.start, pic.cell.size);
    const pts = positions(frame);
    RM.drawTrail(ctx, s, pts, 0.3 * pic.pos.scale);
    // dashed above the walk, so an optimal walk does not hide it
    if (showRoute) { RM.drawRoute(ctx, s, rec.route); }
    const heading = frame > 0 ? rec.steps[frame - 1].heading : rec.heading;
    RM.drawHere(ctx, s, pts[pts.length - 1], heading, pic.pos.scale === 2 ? 1 : pic.cell.size);
    document.getElementById("frame").textContent = "step " + frame + " / " + n;
    const t = frame > 0 ? rec.steps[frame - 1].t : 0;
    const m = rec.summary;
    document.getElementById("info").textContent =
      "t " + t.toFixed(1) + " s; " + m.moves + " moves, optimal " + m.optimal +
      ", extra " + m.extra_moves + (rec.reached_goal ? ", goal reached" : ", goal NOT reached") +
      " (" + (rec.walker.settings.mode || "") + ")";
    document.body.dataset.frame = String(frame);
    document.body.dataset.route = showRoute ? "shown" : "hidden";
  }

  function speed() { return parseFloat(document.getElementById("speed").value); }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playBtn.textContent = "play";
  }

  function start() {
    if (frame >= rec.steps.length) { frame = 0; }
    stop();
    playBtn.textContent = "pause";
    timer = setInterval(() => {
      if (frame >= rec.steps.length) { stop(); return; }
      frame += 1;
      draw();
    }, 250 / speed());
  }

  playBtn.onclick = () => { if (timer === null) { start(); } else { stop(); } };
  document.getElementById("step").onclick = () => { stop(); frame = Math.min(frame + 1, rec.steps.length); draw(); };
  document.getElementById("back").onclick = () => { stop(); frame = Math.max(frame - 1, 0); draw(); };
  document.getElementById("speed").onchange = () => { if (timer !== null) { start(); } };
  solBtn.onclick = () => {
    showRoute = !showRoute;
    solBtn.textContent = showRoute ? "hide solution" : "show solution";
    draw();
  };
  document.addEventListener("keydown", (ev) => {
    if (!rec) { return; }
    if (ev.key === " ") { ev.preventDefault(); playBtn.click(); }
    else if (ev.key === "ArrowRight") { document.getElementById("step").click(); }
    else if (ev.key === "ArrowLeft") { document.getElementById("back").click(); }
  });

  function load(i) {
    stop();
    return RM.api("/api/record/" + i).then((data) => {
      rec = data;
      pic = rec.picture;
      s = RM.setup(canvas, pic);
      frame = 0;
      draw();
    }).catch((err) => { msg.textContent = err.message; });
  }

  sel.onchange = () => load(parseInt(sel.value, 10));

  RM.api("/api/records").then((list) => {
    if (list.length === 0) { msg.textContent = "no records yet: play a maze first"; return; }
    for (const r of list) {
      const o = document.createElement("option");
      o.value = r.index;
      o.textContent = r.name + " (" + r.moves + " moves" + (r.reached_goal ? "" : ", unfinished") + ")";
      sel.appendChild(o);
    }
    const want = parseInt(new URLSearchParams(location.search).get("record"), 10);
    const i = isNaN(want) || want < 0 || want >= list.length ? list.length - 1 : want;
    sel.value = String(i);
    return load(i);
  }).catch((err) => { msg.textContent = err.message; });
}());
