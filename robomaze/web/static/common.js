// Drawing shared by the play and replay pages (plain JavaScript, canvas 2D).
// The server sends a "picture": a matrix of blocked squares ("#"), and the
// rules that place maze cells and positions on it (see robomaze/web/session.py).
"use strict";

const RM = {};
// Move colours by direction, as robomaze replay draws them.
RM.DIR_COLORS = { "0,1": "#1f4fff", "1,0": "#e0201b", "0,-1": "#00c8e0", "-1,0": "#10a010" };
RM.TURN_COLOR = "#888888";
RM.GOAL_COLOR = "#0050ff";
RM.START_COLOR = "#ff0000";
RM.FOG = "#505050";
RM.HERE = "#ff8c00";

RM.api = async function (path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) { throw new Error(data.error || ("HTTP " + r.status)); }
  return data;
};

// Pixels per square so that the picture fits about 640 px.
RM.squarePx = function (pic) {
  return Math.max(2, Math.min(28, Math.floor(640 / Math.max(pic.rows, pic.cols))));
};

RM.setup = function (canvas, pic) {
  const s = RM.squarePx(pic);
  canvas.width = pic.cols * s;
  canvas.height = pic.rows * s;
  return s;
};

RM.cellRect = function (pic, r, c) {
  const k = pic.cell;
  return [r * k.scale + k.offset, c * k.scale + k.offset, k.size, k.size];
};

RM.drawPicture = function (ctx, pic, s) {
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, pic.cols * s, pic.rows * s);
  ctx.fillStyle = "#000000";
  for (let i = 0; i < pic.rows; i++) {
    const row = pic.walls[i];
    for (let j = 0; j < pic.cols; j++) {
      if (row.charCodeAt(j) === 35) { ctx.fillRect(j * s, i * s, s, s); }
    }
  }
};

RM.drawGoals = function (ctx, pic, s, alpha) {
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.fillStyle = RM.GOAL_COLOR;
  for (const [r, c] of pic.goals) {
    const [i, j, h, w] = RM.cellRect(pic, r, c);
    ctx.fillRect(j * s, i * s, w * s, h * s);
  }
  ctx.restore();
};

RM.drawFog = function (ctx, pic, s, visible) {
  if (!visible) { return; }
  ctx.fillStyle = RM.FOG;
  for (let i = 0; i < pic.rows; i++) {
    const row = visible[i];
    for (let j = 0; j < pic.cols; j++) {
      if (row.charCodeAt(j) === 48) { ctx.fillRect(j * s, i * s, s, s); }
    }
  }
};

RM.moveColor = function (a, b) {
  const dr = Math.sign(b[0] - a[0]), dc = Math.sign(b[1] - a[1]);
  return RM.DIR_COLORS[dr + "," + dc] || RM.TURN_COLOR;
};

// A polyline through square centres, each segment in its direction's colour.
RM.drawTrail = function (ctx, s, pts, width) {
  ctx.save();
  ctx.lineCap = "round";
  ctx.lineWidth = Math.max(1.5, width * s);
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1], b = pts[k];
    if (a[0] === b[0] && a[1] === b[1]) { continue; }
    ctx.strokeStyle = RM.moveColor(a, b);
    ctx.beginPath();
    ctx.moveTo((a[1] + 0.5) * s, (a[0] + 0.5) * s);
    ctx.lineTo((b[1] + 0.5) * s, (b[0] + 0.5) * s);
    ctx.stroke();
  }
  ctx.restore();
};

RM.drawRoute = function (ctx, s, pts) {
  ctx.save();
  ctx.setLineDash([Math.max(2, s / 2), Math.max(2, s / 3)]);
  ctx.strokeStyle = "#ff00ff";
  ctx.lineWidth = Math.max(1.5, 0.25 * s);
  ctx.beginPath();
  pts.forEach(([r, c], k) => {
    const x = (c + 0.5) * s, y = (r + 0.5) * s;
    if (k === 0) { ctx.moveTo(x, y); } else { ctx.lineTo(x, y); }
  });
  ctx.stroke();
  ctx.restore();
};

RM.drawStart = function (ctx, s, pos, size) {
  ctx.fillStyle = RM.START_COLOR;
  const h = Math.max(3, size * s * 0.6);
  ctx.fillRect((pos[1] + 0.5) * s - h / 2, (pos[0] + 0.5) * s - h / 2, h, h);
};

// The walker: a disc with an arrow along the heading (degrees, CCW from east).
RM.drawHere = function (ctx, s, pos, heading, size) {
  const x = (pos[1] + 0.5) * s, y = (pos[0] + 0.5) * s;
  const rad = Math.max(3, 0.45 * s * size);
  ctx.fillStyle = RM.HERE;
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.arc(x, y, rad, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  const th = heading * Math.PI / 180;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + 1.6 * rad * Math.cos(th), y - 1.6 * rad * Math.sin(th));
  ctx.lineWidth = 2;
  ctx.stroke();
};

RM.heatColor = function (v, vmax) {
  const f = vmax > 0 ? v / vmax : 0;
  return "rgb(255," + Math.round(255 * (1 - f)) + "," + Math.round(200 * (1 - f)) + ")";
};

// Section error of each maze cell, pale yellow (0) to red (max); null cells
// untouched. The open squares between two coloured cells (passages, on the
// wall matrix of a cell-level maze) take the larger value, so corridors read
// as bands rather than dots.
RM.drawHeat = function (ctx, pic, s, heat, vmax) {
  const k = pic.cell;
  const open = (i, j) => i < pic.rows && j < pic.cols && pic.walls[i].charCodeAt(j) !== 35;
  ctx.save();
  ctx.globalAlpha = 0.7;
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

RM.esc = function (text) {
  const d = document.createElement("div");
  d.textContent = String(text);
  return d.innerHTML;
};

RM.sectionTable = function (rows) {
  const head = ["section", "kind", "length", "moves", "optimal", "error", "wrong_turns", "time"];
  let h = "<table><tr>" + head.map((k) => "<th>" + k + "</th>").join("") + "</tr>";
  for (const r of rows) {
    h += "<tr>" + head.map((k) => "<td>" + RM.esc(k === "time" ? r[k].toFixed(2) : r[k]) + "</td>").join("") + "</tr>";
  }
  return h + "</table>";
};
