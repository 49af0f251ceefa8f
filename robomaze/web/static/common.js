// Drawing shared by the play and replay pages (plain JavaScript, canvas 2D).
// The server sends a "picture": a matrix of blocked squares ("#"), and the
// rules that place maze cells and positions on it (see robomaze/web/session.py).
// Everything is drawn in picture pixels (square (i, j) at x = j*s, y = i*s);
// a page that follows the player translates the context first.
"use strict";

const RM = {};
RM.GOAL_COLOR = "#0050ff";
// the goal's ring: 8:1 against the fog, so a goal in the fog stands out
RM.GOAL_RING = "#ffffff";
RM.START_COLOR = "#000000";
RM.FOG = "#505050";
RM.HERE = "#ffb000";
RM.ROUTE = "#ff00ff";
// the server sends robomaze.traverse.palette.PALETTES; this is only the fallback
RM.palettes = { "okabe-ito": { right: "#0072B2", down: "#D55E00", left: "#56B4E9",
                               up: "#009E73", turn: "#888888", hint: "#882255" } };
RM.palette = "okabe-ito";
// the hint's colour: the palette's, apart from every direction colour (CIEDE2000 >= 15
// for normal, deuteranope and protanope vision: tests/traverse/test_trav_palette.py)
RM.hintColor = function () {
  const p = RM.palettes[RM.palette] || RM.palettes["okabe-ito"];
  return p.hint || "#882255";
};

RM.api = async function (path, body, timeoutMs) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let r, timer = null;
  if (timeoutMs) {
    const ctl = new AbortController();
    opts.signal = ctl.signal;
    timer = setTimeout(() => ctl.abort(), timeoutMs);
  }
  try {
    r = await fetch(path, opts);
    if (timer !== null) { clearTimeout(timer); }
  } catch (err) {
    const e = new Error("the server is gone");
    e.gone = true;
    throw e;
  }
  let data;
  try {
    data = await r.json();
  } catch (err) {
    data = { error: "HTTP " + r.status };
  }
  if (!r.ok) {
    const e = new Error(data.error || ("HTTP " + r.status));
    e.status = r.status;
    e.elsewhere = !!data.elsewhere;
    throw e;
  }
  return data;
};

RM.usePalettes = function (data) {
  if (data.palettes) { RM.palettes = data.palettes; }
};

RM.cellRect = function (pic, r, c) {
  const k = pic.cell;
  return [r * k.scale + k.offset, c * k.scale + k.offset, k.size, k.size];
};

// The squares of the picture inside a view (x, y, w, h in pixels), clamped:
// a page draws only what is on screen, whatever the maze's size.
RM.squaresIn = function (pic, s, view) {
  if (!view) { return [0, pic.rows, 0, pic.cols]; }
  return [Math.max(0, Math.floor(view[1] / s)), Math.min(pic.rows, Math.ceil((view[1] + view[3]) / s)),
          Math.max(0, Math.floor(view[0] / s)), Math.min(pic.cols, Math.ceil((view[0] + view[2]) / s))];
};

// walls: rows of "#" (wall), "." (open), "?" (hidden: drawn as fog). Runs of
// one kind are one rectangle each (whole pixels: s is an integer).
RM.drawPicture = function (ctx, pic, s, walls, view) {
  const [i0, i1, j0, j1] = RM.squaresIn(pic, s, view);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(j0 * s, i0 * s, (j1 - j0) * s, (i1 - i0) * s);
  for (let i = i0; i < i1; i++) {
    const row = walls[i];
    let j = j0;
    while (j < j1) {
      const ch = row.charCodeAt(j);
      let k = j + 1;
      while (k < j1 && row.charCodeAt(k) === ch) { k++; }
      if (ch === 35) { ctx.fillStyle = "#000000"; ctx.fillRect(j * s, i * s, (k - j) * s, s); }
      else if (ch === 63) { ctx.fillStyle = RM.FOG; ctx.fillRect(j * s, i * s, (k - j) * s, s); }
      j = k;
    }
  }
};

// The goal: a solid blue square (5.9:1 on the white floor) inside a white
// ring (8.1:1 on the fog), so it stands out whether its square is seen or not.
RM.drawGoals = function (ctx, pic, s) {
  ctx.save();
  for (const [r, c] of pic.goals) {
    const [i, j, h, w] = RM.cellRect(pic, r, c);
    const ring = Math.max(2, Math.round(s * w * 0.15));
    ctx.fillStyle = RM.GOAL_RING;
    ctx.fillRect(j * s, i * s, w * s, h * s);
    ctx.fillStyle = RM.GOAL_COLOR;
    ctx.fillRect(j * s + ring, i * s + ring, w * s - 2 * ring, h * s - 2 * ring);
  }
  ctx.restore();
};

// An arrow on the view's edge pointing at a goal that is off screen.
RM.drawGoalArrow = function (ctx, pic, s, view) {
  const [x0, y0, vw, vh] = view;
  const [r, c] = pic.goals[0];
  const [i, j, h, w] = RM.cellRect(pic, r, c);
  const gx = (j + w / 2) * s, gy = (i + h / 2) * s;
  if (gx >= x0 && gx <= x0 + vw && gy >= y0 && gy <= y0 + vh) { return false; }
  const cx = x0 + vw / 2, cy = y0 + vh / 2, dx = gx - cx, dy = gy - cy;
  const m = 18, k = Math.min((vw / 2 - m) / Math.abs(dx || 1e-9), (vh / 2 - m) / Math.abs(dy || 1e-9));
  const ax = cx + dx * k, ay = cy + dy * k, ang = Math.atan2(dy, dx);
  ctx.save();
  ctx.translate(ax, ay);
  ctx.rotate(ang);
  ctx.beginPath();
  ctx.moveTo(14, 0);
  ctx.lineTo(-10, -11);
  ctx.lineTo(-4, 0);
  ctx.lineTo(-10, 11);
  ctx.closePath();
  ctx.lineWidth = 3;
  ctx.strokeStyle = RM.GOAL_RING;
  ctx.stroke();
  ctx.fillStyle = RM.GOAL_COLOR;
  ctx.fill();
  ctx.restore();
  return true;
};

RM.dirColor = function (dr, dc) {
  const p = RM.palettes[RM.palette] || RM.palettes["okabe-ito"];
  if (dr === 0 && dc === 1) { return p.right; }
  if (dr === 1 && dc === 0) { return p.down; }
  if (dr === 0 && dc === -1) { return p.left; }
  if (dr === -1 && dc === 0) { return p.up; }
  return p.turn;
};

RM.moveColor = function (a, b) {
  return RM.dirColor(Math.sign(b[0] - a[0]), Math.sign(b[1] - a[1]));
};

// A polyline through square centres, each segment in its direction's colour.
// A segment walked both ways shows both: the second pass is drawn as two
// parallel half-width lines, so a retraced corridor is not one colour.
RM.drawTrail = function (ctx, s, pts, width, view) {
  ctx.save();
  ctx.lineCap = "round";
  const lw = Math.max(2, width * s);
  const seen = new Map();
  // segments off screen are counted (a later pass is still a second pass) but not drawn
  const lo = view ? [view[1] / s - 2, view[0] / s - 2] : null;
  const hi = view ? [(view[1] + view[3]) / s + 2, (view[0] + view[2]) / s + 2] : null;
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1], b = pts[k];
    if (a[0] === b[0] && a[1] === b[1]) { continue; }
    const key = Math.min(a[0], b[0]) + "," + Math.min(a[1], b[1]) + "," + Math.max(a[0], b[0]) + "," + Math.max(a[1], b[1]);
    const n = seen.get(key) || 0;
    seen.set(key, n + 1);
    if (lo && (Math.max(a[0], b[0]) < lo[0] || Math.min(a[0], b[0]) > hi[0] ||
               Math.max(a[1], b[1]) < lo[1] || Math.min(a[1], b[1]) > hi[1])) { continue; }
    ctx.strokeStyle = RM.moveColor(a, b);
    const off = n === 0 ? 0 : (n % 2 ? 1 : -1) * lw / 4;
    const ox = a[0] === b[0] ? 0 : off, oy = a[0] === b[0] ? off : 0;
    ctx.lineWidth = n === 0 ? lw : lw / 2;
    ctx.beginPath();
    ctx.moveTo((a[1] + 0.5) * s + ox, (a[0] + 0.5) * s + oy);
    ctx.lineTo((b[1] + 0.5) * s + ox, (b[0] + 0.5) * s + oy);
    ctx.stroke();
  }
  ctx.restore();
};

RM.drawRoute = function (ctx, s, pts) {
  ctx.save();
  ctx.setLineDash([Math.max(2, s / 2), Math.max(2, s / 3)]);
  ctx.strokeStyle = RM.ROUTE;
  ctx.lineWidth = Math.max(1.5, 0.25 * s);
  ctx.beginPath();
  pts.forEach(([r, c], k) => {
    const x = (c + 0.5) * s, y = (r + 0.5) * s;
    if (k === 0) { ctx.moveTo(x, y); } else { ctx.lineTo(x, y); }
  });
  ctx.stroke();
  ctx.restore();
};

// The start: a ring around its cell, drawn above the trail and bigger than
// the player, so neither hides it.
RM.drawStart = function (ctx, pic, s, pos) {
  const size = pic.pos.scale === 2 ? 1 : pic.cell.size;
  const h = Math.max(8, size * s * 0.9);
  const x = (pos[1] + 0.5) * s, y = (pos[0] + 0.5) * s;
  ctx.save();
  ctx.lineWidth = Math.max(2, h * 0.14);
  ctx.strokeStyle = "#ffffff";
  ctx.strokeRect(x - h / 2 - 1, y - h / 2 - 1, h + 2, h + 2);
  ctx.strokeStyle = RM.START_COLOR;
  ctx.strokeRect(x - h / 2, y - h / 2, h, h);
  ctx.restore();
};

// The walker: a disc one square wide with an arrow along the heading
// (degrees, CCW from east), in a white and black halo at least 9 px across,
// so it is found at once on a big maze of small squares.
RM.drawHere = function (ctx, s, pos, heading) {
  const x = (pos[1] + 0.5) * s, y = (pos[0] + 0.5) * s;
  const rad = Math.max(6, 0.42 * s);
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, rad + 5, 0, 2 * Math.PI);
  ctx.lineWidth = 4;
  ctx.strokeStyle = "rgba(255,255,255,0.95)";
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y, rad + 7.5, 0, 2 * Math.PI);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "#000";
  ctx.stroke();
  ctx.fillStyle = RM.HERE;
  ctx.strokeStyle = "#000";
  ctx.lineWidth = Math.max(1.5, rad * 0.18);
  ctx.beginPath();
  ctx.arc(x, y, rad, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  const th = heading * Math.PI / 180, ux = Math.cos(th), uy = -Math.sin(th);
  const tip = 0.95 * rad, back = -0.35 * rad, wing = 0.55 * rad;
  ctx.fillStyle = "#000";
  ctx.beginPath();
  ctx.moveTo(x + ux * tip, y + uy * tip);
  ctx.lineTo(x + ux * back - uy * wing, y + uy * back + ux * wing);
  ctx.lineTo(x + ux * back + uy * wing, y + uy * back - ux * wing);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
};

// Section error: white (0) to dark purple (max), away from every direction colour.
RM.heatColor = function (v, vmax) {
  const f = vmax > 0 ? v / vmax : 0;
  const lo = [245, 240, 250], hi = [110, 40, 140];
  const c = lo.map((x, i) => Math.round(x + (hi[i] - x) * f));
  return "rgb(" + c.join(",") + ")";
};

// Section error of each maze cell; null cells untouched. The open squares
// between two coloured cells (passages, on the wall matrix of a cell-level
// maze) take the larger value, so corridors read as bands rather than dots.
RM.drawHeat = function (ctx, pic, s, heat, vmax) {
  const k = pic.cell;
  const open = (i, j) => i < pic.rows && j < pic.cols && pic.walls[i].charCodeAt(j) !== 35;
  ctx.save();
  for (let r = 0; r < heat.length; r++) {
    for (let c = 0; c < heat[r].length; c++) {
      const v = heat[r][c];
      if (v === null) { continue; }
      const [i, j, h, w] = RM.cellRect(pic, r, c);
      ctx.fillStyle = RM.heatColor(v, vmax);
      ctx.fillRect(j * s, i * s, w * s, h * s);
      const gap = k.scale - k.size;
      const right = c + 1 < heat[r].length ? heat[r][c + 1] : null;
      if (right !== null && gap > 0 && open(i, j + w)) {
        ctx.fillStyle = RM.heatColor(Math.max(v, right), vmax);
        ctx.fillRect((j + w) * s, i * s, gap * s, h * s);
      }
      const below = r + 1 < heat.length ? heat[r + 1][c] : null;
      if (below !== null && gap > 0 && open(i + h, j)) {
        ctx.fillStyle = RM.heatColor(Math.max(v, below), vmax);
        ctx.fillRect(j * s, (i + h) * s, w * s, gap * s);
      }
    }
  }
  ctx.restore();
};

// Section numbers on the finish map, so table rows can be found on it. The
// sections come with errors first; each number goes on the first of its
// candidate cells where it overlaps no number already placed (else it is
// only in the table). Returns the boxes placed.
RM.drawSectionNumbers = function (ctx, pic, s, sections) {
  const k = pic.cell;
  const px = Math.max(9, Math.min(16, k.size * s * 0.8));
  const placed = [];
  ctx.save();
  ctx.font = "bold " + px + "px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3;
  ctx.strokeStyle = "#ffffff";
  ctx.fillStyle = "#000000";
  for (const sec of sections) {
    const text = String(sec.section);
    const w = ctx.measureText(text).width + 4, h = px + 2;
    for (const at of sec.at || []) {
      const [i, j, hh, ww] = RM.cellRect(pic, at[0], at[1]);
      const x = (j + ww / 2) * s, y = (i + hh / 2) * s;
      const box = [x - w / 2, y - h / 2, w, h];
      const hit = placed.some((b) => box[0] < b[0] + b[2] && b[0] < box[0] + box[2] &&
                                     box[1] < b[1] + b[3] && b[1] < box[1] + box[3]);
      if (hit) { continue; }
      placed.push(box);
      ctx.strokeText(text, x, y);
      ctx.fillText(text, x, y);
      break;
    }
  }
  ctx.restore();
  RM.lastLabels = placed;
  return placed;
};

RM.esc = function (text) {
  const d = document.createElement("div");
  d.textContent = String(text);
  return d.innerHTML;
};

RM.sectionRows = function (rows) {
  const head = ["section", "kind", "length", "moves", "optimal", "error", "wrong_turns", "time"];
  const names = { wrong_turns: "wrong turns", time: "time (s)" };
  let h = "<table><thead><tr>" + head.map((k) => "<th scope='col'>" + (names[k] || k) + "</th>").join("") + "</tr></thead><tbody>";
  for (const r of rows) {
    h += "<tr>" + head.map((k) => "<td>" + RM.esc(k === "time" ? r[k].toFixed(2) : k === "kind" ? String(r[k]).replace("_", " ") : r[k]) + "</td>").join("") + "</tr>";
  }
  return h + "</tbody></table>";
};

// Sections with error first (the server sorts them); the rest folded away.
// Each table scrolls on its own and can be reached by keyboard (tabindex).
RM.sectionTable = function (rows) {
  const bad = rows.filter((r) => r.error > 0), good = rows.filter((r) => r.error === 0);
  let h = bad.length ? "<div class='tablewrap' tabindex='0' role='region' aria-label='sections with error'>" +
    RM.sectionRows(bad) + "</div>" : "<p>No section with error.</p>";
  if (good.length) {
    h += "<details id='goodsections'><summary>" + good.length + " section" + (good.length === 1 ? "" : "s") +
      " without error</summary><div class='tablewrap' tabindex='0' role='region' aria-label='sections without error'>" +
      RM.sectionRows(good) + "</div></details>";
  }
  return h;
};

// The legend drawn from the palette in use: it always matches the drawing.
RM.legend = function (el, withRoute, withHint) {
  const p = RM.palettes[RM.palette] || RM.palettes["okabe-ito"];
  const items = [["right", p.right], ["down", p.down], ["left", p.left], ["up", p.up]];
  if (withRoute) { items.push(["best route", RM.ROUTE]); }
  if (withHint) { items.push(["hint (H)", RM.hintColor()]); }
  el.textContent = "moves: ";
  for (const [name, colour] of items) {
    const sw = document.createElement("canvas");
    sw.width = 14; sw.height = 14;
    sw.className = "swatch";
    const c = sw.getContext("2d");
    c.fillStyle = colour;
    c.fillRect(0, 0, 14, 14);
    sw.setAttribute("aria-hidden", "true");
    const item = document.createElement("span");
    item.className = "item";
    item.appendChild(sw);
    item.appendChild(document.createTextNode(name));
    el.appendChild(item);
  }
};

RM.fillPaletteSelect = function (sel) {
  sel.textContent = "";
  for (const name of Object.keys(RM.palettes)) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name === "okabe-ito" ? "Okabe-Ito (colour-blind safe)" : name === "paper" ? "paper (blue red cyan green)" : name;
    sel.appendChild(o);
  }
  sel.value = RM.palette;
};
