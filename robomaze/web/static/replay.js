// The replay page: a recorded walk animated step by step, with the best route on demand.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $("maze"), ctx = canvas.getContext("2d");
  const sel = $("record"), playBtn = $("play"), solBtn = $("solution"), msg = $("message");
  const slider = $("slider"), palSel = $("palette");
  const query = new URLSearchParams(location.search);
  let rec = null, pic = null, s = 1, frame = 0, timer = null, showRoute = false, zoom = 1;

  // Position after the first k steps (bumps and turns keep the place).
  function positions(k) {
    const pts = [rec.start];
    for (let i = 0; i < k; i++) {
      const p = rec.steps[i].pos, q = pts[pts.length - 1];
      if (p[0] !== q[0] || p[1] !== q[1]) { pts.push(p); }
    }
    return pts;
  }

  // As the game: cells of at least 12 px (zoom changes it); a maze bigger
  // than the view is followed around the walker, on whole pixels.
  function setup() {
    const availW = Math.max(120, $("view").clientWidth);
    const availH = Math.max(200, window.innerHeight - $("view").getBoundingClientRect().top - 60);
    const per = pic.pos.scale === 2 ? 1 : pic.cell.size;
    const fit = Math.floor(Math.min(availW / pic.cols, availH / pic.rows));
    s = Math.max(1, Math.round(Math.max(Math.min(fit, 28), Math.ceil(12 / per)) * zoom));
    canvas.width = Math.min(pic.cols * s, Math.floor(availW));
    canvas.height = Math.min(pic.rows * s, Math.floor(availH));
    document.body.dataset.camera = pic.cols * s > canvas.width || pic.rows * s > canvas.height ? "follow" : "fit";
    document.body.dataset.cellpx = String(s * per);
  }

  function zoomBy(f) {
    zoom = Math.max(0.1, Math.min(6, zoom * f));
    if (rec) { setup(); draw(); }
  }

  function draw() {
    const n = rec.steps.length;
    const pts = positions(frame);
    const here = pts[pts.length - 1];
    const cx = (here[1] + 0.5) * s - canvas.width / 2, cy = (here[0] + 0.5) * s - canvas.height / 2;
    const cam = [Math.round(Math.max(0, Math.min(pic.cols * s - canvas.width, cx))),
                 Math.round(Math.max(0, Math.min(pic.rows * s - canvas.height, cy)))];
    const box = [cam[0], cam[1], canvas.width, canvas.height];
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(1, 0, 0, 1, -cam[0], -cam[1]);
    RM.drawPicture(ctx, pic, s, pic.walls, box);
    RM.drawGoals(ctx, pic, s);
    RM.drawTrail(ctx, s, pts, pic.pos.scale === 2 ? 0.55 : 0.5, box);
    RM.drawStart(ctx, pic, s, rec.start);
    // dashed above the walk, so an optimal walk does not hide it
    if (showRoute) { RM.drawRoute(ctx, s, rec.route); }
    const heading = frame > 0 ? rec.steps[frame - 1].heading : rec.heading;
    RM.drawHere(ctx, s, here, heading);
    RM.drawGoalArrow(ctx, pic, s, box);
    let moves = 0, bumps = 0;
    for (let i = 0; i < frame; i++) { if (rec.steps[i].bump) { bumps += 1; } else { moves += 1; } }
    $("frame").textContent = "step " + frame + " / " + n + " (moves " + moves + ", bumps " + bumps + ")";
    const t = frame > 0 ? rec.steps[frame - 1].t : 0;
    const m = rec.summary;
    // "extra" compares a walk to the best route: it means nothing before the goal
    $("info").textContent = "t " + t.toFixed(1) + " s; " + m.moves + " moves, " + m.bumps + " bumps" +
      (m.hints ? ", " + m.hints + " hints" : "") +
      (rec.reached_goal ? ", optimal " + m.optimal + ", extra " + m.extra_moves + ", goal reached"
        : ", unfinished (goal not reached, " + m.remaining + " cells from it)") + "; " + rec.label;
    slider.value = String(frame);
    document.body.dataset.frame = String(frame);
    document.body.dataset.route = showRoute ? "shown" : "hidden";
  }

  function speed() { return parseFloat($("speed").value); }

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
  $("step").onclick = () => { stop(); frame = Math.min(frame + 1, rec.steps.length); draw(); };
  $("back").onclick = () => { stop(); frame = Math.max(frame - 1, 0); draw(); };
  $("speed").onchange = () => { if (timer !== null) { start(); } };
  $("zoomin").onclick = () => zoomBy(1.25);
  $("zoomout").onclick = () => zoomBy(0.8);
  window.addEventListener("resize", () => { if (rec) { setup(); draw(); } });
  slider.oninput = () => { stop(); frame = parseInt(slider.value, 10) || 0; draw(); };
  palSel.onchange = () => { RM.palette = palSel.value; RM.legend($("legend"), true); if (rec) { draw(); } };
  solBtn.onclick = () => {
    showRoute = !showRoute;
    solBtn.textContent = showRoute ? "hide solution" : "show solution";
    draw();
  };
  document.addEventListener("keydown", (ev) => {
    if (!rec || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    const tag = ev.target.tagName;
    if (ev.key === "Escape") { ev.target.blur(); return; }
    if (tag === "SELECT" || tag === "INPUT") { return; }
    if (ev.key === " " && tag !== "BUTTON") { ev.preventDefault(); playBtn.click(); }
    else if (ev.key === "ArrowRight") { $("step").click(); }
    else if (ev.key === "ArrowLeft") { $("back").click(); }
    else if (ev.key === "+" || ev.key === "=") { zoomBy(1.25); }
    else if (ev.key === "-") { zoomBy(0.8); }
  });

  function load(i) {
    stop();
    return RM.api("/api/record/" + i).then((data) => {
      rec = data;
      pic = rec.picture;
      if (palSel.options.length === 0) {
        RM.usePalettes(data);
        RM.palette = query.get("palette") in RM.palettes ? query.get("palette") : data.palette;
        RM.fillPaletteSelect(palSel);
        RM.legend($("legend"), true);
      }
      setup();
      slider.max = String(rec.steps.length);
      frame = 0;
      draw();
    }).catch((err) => { msg.textContent = err.message; });
  }

  sel.onchange = () => load(parseInt(sel.value, 10));

  RM.api("/api/records").then((list) => {
    if (list.length === 0) { msg.textContent = "no records yet: play a maze first"; return; }
    document.body.dataset.records = String(list.length);
    for (const r of list) {
      const o = document.createElement("option");
      o.value = r.index;
      o.textContent = r.label + " (" + r.moves + " moves" + (r.bumps ? ", " + r.bumps + " bumps" : "") +
        (r.hints ? ", " + r.hints + " hints" : "") +
        (r.reached_goal ? "" : ", unfinished") + ") " + r.name;
      sel.appendChild(o);
    }
    const want = parseInt(query.get("record"), 10);
    const i = isNaN(want) || want < 0 || want >= list.length ? list.length - 1 : want;
    sel.value = String(i);
    return load(i);
  }).catch((err) => { msg.textContent = err.message; });
}());
