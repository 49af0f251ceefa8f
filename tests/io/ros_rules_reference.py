"""Independent per-pixel ports of the two map_server pixel rules, and a
generator of maps of every image kind, for tests/io/test_io_rosmap_rules.py.

Written from the C++ sources, one pixel at a time, without numpy or
robomaze:

* ROS 2 Nav2, ``nav2_map_server/src/map_io.cpp`` ``loadMapFromFile``:
  GraphicsMagick Q16 quanta; ``channels = {red, green, blue}`` plus, in
  Trinary mode when ``img.matte()``, ``MaxRGB - alphaQuantum`` (the alpha);
  ``shade = scaleQuantumToDouble(sum / channels.size())``; ``occ = negate ?
  shade : 1.0 - shade``; Trinary: ``occupied_thresh < occ`` -> 100, ``occ <
  free_thresh`` -> 0, else -1; Scale: ``alphaQuantum != OpaqueOpacity`` ->
  -1, then the same, else ``std::rint((occ - free) / (occ - free range) *
  100)``; Raw: ``std::round(shade * 255)``, 0..100 kept, else -1.
* ROS 1 ``map_server/src/image_loader.cpp`` on SDL_image's 8-bit surface:
  ``avg_channels = n_channels`` in TRINARY or without an alpha mask, else
  ``n_channels - 1``; ``color_avg = color_sum / (double)avg_channels``;
  ``alpha = n_channels == 1 ? 1 : p[n_channels - 1]``; ``negate`` ->
  ``color_avg = 255 - color_avg``; RAW: ``value = color_avg`` (int8);
  ``occ = (255 - color_avg) / 255.0``; ``occ > occ_th`` -> 100, ``occ <
  free_th`` -> 0, TRINARY or ``alpha < 1.0`` -> -1, else ``1 + 98 *
  ratio``. SDL_image: PNG 16-bit -> ``png_set_strip_16`` (high byte), grey
  + alpha -> RGBA (``png_set_gray_to_rgb``); PNM ``maxval < 255`` -> ``v *
  255 / maxval`` (integers), ``maxval > 255`` unsupported.

The robomaze grid: 100 occupied, 0 free, anything else unknown; in raw mode
the values 0..100 are compared with ``thresh * 100``.
"""

from __future__ import annotations

import io
import random
from decimal import ROUND_HALF_UP, Decimal

from PIL import Image

KINDS = ("pgm8", "pgm16", "pgm-ascii", "pgm-ascii-1000", "pgm-ascii-100", "png-grey",
         "png-rgb", "png-rgba", "png-grey-alpha", "png-grey16")
MODES = ("trinary", "scale", "raw")
THRESHOLDS = ((0.65, 0.25), (0.65, 0.196), (0.8, 0.2))


def _layout(kind: str) -> tuple[int, int, bool]:
    """(maxval, number of stored channels, has alpha)."""
    return {"pgm8": (255, 1, False), "pgm16": (65535, 1, False),
            "pgm-ascii": (255, 1, False), "pgm-ascii-1000": (1000, 1, False),
            "pgm-ascii-100": (100, 1, False), "png-grey": (255, 1, False),
            "png-rgb": (255, 3, False), "png-rgba": (255, 4, True),
            "png-grey-alpha": (255, 2, True), "png-grey16": (65535, 1, False)}[kind]


def nav2_value(px, maxval, has_alpha, mode, negate, occ_t, free_t) -> int:
    if 65535 % maxval == 0:
        scale, top = 65535 // maxval, 65535
    else:                                   # exact level / maxval (no 16-bit rounding)
        scale, top = 1, maxval
    q = [v * scale for v in px]
    colour = q[:3] if len(q) >= 3 else [q[0], q[0], q[0]]
    alpha_q = q[-1] if has_alpha else top
    opacity = top - alpha_q                 # GraphicsMagick: 0 is opaque
    channels = list(colour)
    if mode == "trinary" and has_alpha:
        channels.append(top - opacity)
    total = 0.0
    for c in channels:
        total += c
    shade = (total / len(channels)) / top
    occ = shade if negate else 1.0 - shade
    if mode == "trinary":
        if occ_t < occ:
            return 100
        if occ < free_t:
            return 0
        return -1
    if mode == "scale":
        if opacity != 0:
            return -1
        if occ_t < occ:
            return 100
        if occ < free_t:
            return 0
        return int(round((occ - free_t) / (occ_t - free_t) * 100.0))   # rint: half even
    pct = int(Decimal(shade * 255).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return pct if 0 <= pct <= 100 else -1


def sdl_pixel(px, kind, maxval) -> list[int]:
    """The bytes of one pixel of SDL_image's surface."""
    if kind.startswith("png") and maxval == 65535:
        b = [v >> 8 for v in px]
    elif maxval < 255:
        b = [v * 255 // maxval for v in px]
    elif maxval > 255:
        raise ValueError("SDL_image: unsupported PNM format")
    else:
        b = list(px)
    if len(b) == 2:
        b = [b[0], b[0], b[0], b[1]]
    return b


def ros1_value(px, kind, maxval, has_alpha, mode, negate, occ_t, free_t) -> int:
    p = sdl_pixel(px, kind, maxval)
    n = len(p)
    avg = n if (mode == "trinary" or not has_alpha) else n - 1
    color_sum = 0
    for k in range(avg):
        color_sum += p[k]
    color_avg = color_sum / float(avg)
    alpha = 1 if n == 1 else p[n - 1]
    if negate:
        color_avg = 255 - color_avg
    if mode == "raw":
        value = int(color_avg)               # conversion to int8_t truncates
        value = value - 256 if value > 127 else value
        return value if 0 <= value <= 100 else -1
    occ = (255 - color_avg) / 255.0
    if occ > occ_t:
        return 100
    if occ < free_t:
        return 0
    if mode == "trinary" or alpha < 1.0:
        return -1
    return int(1 + 98 * ((occ - free_t) / (occ_t - free_t)))


def classify(value: int, mode: str, occ_t: float, free_t: float) -> str:
    """'occupied', 'free' or 'unknown' for robomaze's boolean grid."""
    if mode == "raw":
        if value < 0:
            return "unknown"
        if value > occ_t * 100:
            return "occupied"
        if value < free_t * 100:
            return "free"
        return "unknown"
    return {100: "occupied", 0: "free"}.get(value, "unknown")


# ------------------------------------------------------------------ images
SPECIAL_8 = [(0,), (51,), (204,), (205,), (254,), (255,), (89,), (166,), (191,), (64,),
             (127,), (128,), (100,), (101,)]
SPECIAL_RGB = [(89, 89, 90), (204, 204, 205), (51, 51, 52), (0, 0, 1), (166, 166, 167),
               (255, 0, 0), (0, 0, 255), (254, 254, 253), (100, 101, 101)]


def pixels(kind: str, seed: int, rows: int = 6, cols: int = 8):
    """Rows of pixel tuples (levels as stored in the file) for ``kind``."""
    rnd = random.Random(seed)
    maxval, nch, has_alpha = _layout(kind)
    out = []
    specials = list(SPECIAL_RGB if nch >= 3 else SPECIAL_8)
    for r in range(rows):
        row = []
        for c in range(cols):
            i = r * cols + c
            if i < len(specials) and maxval == 255:
                base = list(specials[i])
            else:
                base = [rnd.randint(0, maxval) for _ in range(3 if nch >= 3 else 1)]
                if nch >= 3 and rnd.random() < 0.5:
                    base = [base[0]] * 3
                    base[rnd.randrange(3)] = min(maxval, base[0] + 1)
            if has_alpha:
                a = rnd.choice([0, 255, 255, 255, 1, 128, 254])
                if i == 0:
                    base, a = [248] * len(base), 0          # the unsafe pixel
                base.append(a)
            row.append(tuple(base))
        out.append(row)
    if maxval == 1000:
        out[0][0] = (650,)
        out[0][1] = (800,)
        out[0][2] = (200,)
    if maxval == 65535:
        out[0][0], out[0][1], out[0][2] = (40000,), (13107,), (52428,)
    return out


def encode(kind: str, rows_px) -> bytes:
    """The image file of ``rows_px``, written without robomaze."""
    maxval, nch, _ = _layout(kind)
    h, w = len(rows_px), len(rows_px[0])
    flat = [v for row in rows_px for px in row for v in px]
    if kind in ("pgm8", "pgm16"):
        head = f"P5\n# generated\n{w} {h}\n{maxval}\n".encode()
        if maxval > 255:
            return head + b"".join(v.to_bytes(2, "big") for v in flat)
        return head + bytes(flat)
    if kind.startswith("pgm-ascii"):
        body = "\n".join(" ".join(str(px[0]) for px in row) for row in rows_px)
        return f"P2\n{w} {h}\n{maxval}\n{body}\n".encode()
    mode = {"png-grey": "L", "png-rgb": "RGB", "png-rgba": "RGBA", "png-grey-alpha": "LA",
            "png-grey16": "I;16"}[kind]
    if mode == "I;16":
        img = Image.new("I;16", (w, h))
        img.putdata([px[0] for row in rows_px for px in row])
    else:
        img = Image.new(mode, (w, h))
        img.putdata([px if nch > 1 else px[0] for row in rows_px for px in row])
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def cases():
    """(kind, mode, negate, occ_t, free_t, seed) for every generated map."""
    seed = 0
    for kind in KINDS:
        for mode in MODES:
            for negate in (0, 1):
                for occ_t, free_t in THRESHOLDS:
                    seed += 1
                    yield kind, mode, negate, occ_t, free_t, seed


def write_map(folder, kind, mode, negate, occ_t, free_t, seed):
    """Write one generated map; returns (yaml path, pixel rows, maxval, has_alpha)."""
    maxval, _, has_alpha = _layout(kind)
    px = pixels(kind, seed)
    ext = ".png" if kind.startswith("png") else ".pgm"
    name = f"m{seed}"
    (folder / (name + ext)).write_bytes(encode(kind, px))
    (folder / (name + ".yaml")).write_text(
        f"image: {name}{ext}\nmode: {mode}\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\n"
        f"negate: {negate}\noccupied_thresh: {occ_t}\nfree_thresh: {free_t}\n")
    return folder / (name + ".yaml"), px, maxval, has_alpha
