// Drawing shared by the play and replay pages (plain JavaScript, canvas 2D).
// The server sends a "picture": a matrix of blocked squares ("#"), and the
// rules that place maze cells and positions on it (see robomaze/web/session.py).
// Everything is drawn in picture pixels (square (i, j) at x = j*s, y = i*s);
// a page that follows the player translates the context first.
"use strict";

const RM = {};
RM.GOAL_COLOR = "#0050ff";
RM.START_COLOR = "#000000";
RM.FOG = "#505050";
RM.HERE = "#ffb000";
RM.ROUTE = "#ff00ff";
// a hint is a piece of the best route: the replay's route colour
RM.HINT = RM.ROUTE;
// the server sends robomaze.traverse.palette.PALETTES; this is only the fallback
RM.palettes = { "okabe-ito": { right: "#0072B2", down: "#D55E00", left: "#56B4E9",
                               up: "#009E73", turn: "#888888" } };
RM.palette = "okabe-ito";

RM.api = async function (path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let r;
  try {
    r = await fetch(path, opts);
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

// walls: rows of "#" (wall), "." (open), "?" (hidden: drawn as fog)
RM.drawPicture = function (ctx, pic, s, walls) {
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, pic.cols * s, pic.rows * s);
  for (let i = 0; i < pic.rows; i++) {
    const row = walls[i];
    for (let j = 0; j < pic.cols; j++) {
      const ch = row.charCodeAt(j);
      if (ch === 35) { ctx.fillStyle = "#000000"; ctx.fillRect(j * s, i * s, s, s); }
      else if (ch === 63) { ctx.fillStyle = RM.FOG; ctx.fillRect(j * s, i * s, s, s); }
    }
  }
};

RM.drawGoals = function (ctx, pic, s, alpha) {
  ctx.save();
  for (const [r, c] of pic.goals) {
    const [i, j, h, w] = RM.cellRect(pic, r, c);
    ctx.globalAlpha = alpha;
    ctx.fillStyle = RM.GOAL_COLOR;
    ctx.fillRect(j * s, i * s, w * s, h * s);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = RM.GOAL_COLOR;
    ctx.lineWidth = Math.max(2, s * 0.15);
    ctx.strokeRect(j * s + 1, i * s + 1, w * s - 2, h * s - 2);
  }
  ctx.restore();
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
RM.drawTrail = function (ctx, s, pts, width) {
  ctx.save();
  ctx.lineCap = "round";
  const lw = Math.max(2, width * s);
  const seen = new Map();
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1], b = pts[k];
    if (a[0] === b[0] && a[1] === b[1]) { continue; }
    const key = Math.min(a[0], b[0]) + "," + Math.min(a[1], b[1]) + "," + Math.max(a[0], b[0]) + "," + Math.max(a[1], b[1]);
    const n = seen.get(key) || 0;
    seen.set(key, n + 1);
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
// (degrees, CCW from east) -- it never covers the walls beside it.
RM.drawHere = function (ctx, s, pos, heading) {
  const x = (pos[1] + 0.5) * s, y = (pos[0] + 0.5) * s;
  const rad = Math.max(4, 0.42 * s);
  ctx.save();
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

// Section numbers on the finish map, so table rows can be found on it.
RM.drawSectionNumbers = function (ctx, pic, s, sections) {
  const k = pic.cell;
  const px = Math.max(9, Math.min(16, k.size * s * 0.8));
  ctx.save();
  ctx.font = "bold " + px + "px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3;
  ctx.strokeStyle = "#ffffff";
  ctx.fillStyle = "#000000";
  for (const sec of sections) {
    if (!sec.at) { continue; }
    const [i, j, h, w] = RM.cellRect(pic, sec.at[0], sec.at[1]);
    const x = (j + w / 2) * s, y = (i + h / 2) * s;
    ctx.strokeText(String(sec.section), x, y);
    ctx.fillText(String(sec.section), x, y);
  }
  ctx.restore();
};

RM.esc = function (text) {
  const d = document.createElement("div");
  d.textContent = String(text);
  return d.innerHTML;
};

RM.sectionTable = function (rows) {
  const head = ["section", "kind", "length", "moves", "optimal", "error", "wrong_turns", "time"];
  let h = "<div class='tablewrap'><table><tr>" + head.map((k) => "<th>" + k.replace("_", " ") + "</th>").join("") + "</tr>";
  for (const r of rows) {
    h += "<tr>" + head.map((k) => "<td>" + RM.esc(k === "time" ? r[k].toFixed(2) : r[k]) + "</td>").join("") + "</tr>";
  }
  return h + "</table></div>";
};

// The legend drawn from the palette in use: it always matches the drawing.
RM.legend = function (el, withRoute, withHint) {
  const p = RM.palettes[RM.palette] || RM.palettes["okabe-ito"];
  const items = [["right", p.right], ["down", p.down], ["left", p.left], ["up", p.up]];
  if (withRoute) { items.push(["best route", RM.ROUTE]); }
  if (withHint) { items.push(["hint (H)", RM.HINT]); }
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
