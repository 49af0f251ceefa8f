"""The direction palettes seen through colour-vision-deficiency simulations.

Written from the published constants: sRGB (IEC 61966-2-1) to linear RGB,
the severity-1.0 deuteranopia and protanopia matrices of Machado, Oliveira
and Fernandes (2009, "A physiologically-based model for simulation of color
vision deficiency", Table: severity 1.0), applied in linear RGB, then CIE
XYZ (D65) -> CIELAB and the CIEDE2000 difference (Sharma, Wu and Dalal 2005),
itself checked against that paper's test pairs.
"""

import itertools
import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.traverse.palette import DEFAULT_PALETTE, PALETTES, check_palette, direction_colors

MACHADO = {
    "normal": np.eye(3),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}
#: The stated minimum: every two direction colours differ by at least this
#: CIEDE2000 under normal vision, deuteranopia and protanopia (about the gap
#: between a saturated blue and a sky blue; 2.3 is a just-noticeable difference).
MIN_DE00 = 15.0
#: ... and each differs from the white background by at least this.
MIN_DE00_WHITE = 20.0
DIRECTIONS = ("right", "down", "left", "up")


def _linear(hex_colour: str) -> np.ndarray:
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> tuple[float, float, float]:
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = m @ np.clip(linear_rgb, 0.0, 1.0) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _de00(lab1, lab2) -> float:
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1 = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2 = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1 + h2
    elif abs(h1 - h2) <= 180:
        hbar = (h1 + h2) / 2
    else:
        hbar = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6))
         - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-((hbar - 275) / 25) ** 2)
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2
                     + rt * (dcp / sc) * (dhp / sh))


@pytest.mark.parametrize("lab1,lab2,expected", [
    # Sharma, Wu and Dalal (2005), Table 1, pairs 1, 2, 3, 17 and 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert _de00(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert _de00(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_lab_of_white_and_black():
    assert _lab(_linear("#ffffff")) == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)
    assert _lab(_linear("#000000")) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def _min_difference(palette: str, vision: str) -> float:
    m = MACHADO[vision]
    labs = [_lab(m @ _linear(PALETTES[palette][d])) for d in DIRECTIONS]
    return min(_de00(a, b) for a, b in itertools.combinations(labs, 2))


@pytest.mark.parametrize("palette", list(PALETTES))
@pytest.mark.parametrize("vision", list(MACHADO))
def test_every_palette_keeps_the_four_directions_and_the_hint_apart(palette, vision):
    assert _min_difference(palette, vision) >= MIN_DE00
    m = MACHADO[vision]
    white = _lab(np.ones(3))
    hint = _lab(m @ _linear(PALETTES[palette]["hint"]))
    for d in DIRECTIONS:
        seen = _lab(m @ _linear(PALETTES[palette][d]))
        assert _de00(seen, white) >= MIN_DE00_WHITE, d
        # issue 38: the old magenta hint was 5.3 from "left" for a deuteranope
        assert _de00(hint, seen) >= MIN_DE00, (d, _de00(hint, seen))
    assert _de00(hint, white) >= MIN_DE00_WHITE


def test_the_old_paper_shades_merged_up_and_down_for_a_deuteranope():
    # why paper's red and green changed shade: the figures' own merged (2.8)
    m = MACHADO["deuteranopia"]
    up, down = (_lab(m @ _linear(c)) for c in ("#10a010", "#e0201b"))
    assert _de00(up, down) < 5.0
    assert DEFAULT_PALETTE == "okabe-ito"


def test_palette_lookup():
    assert direction_colors("paper") == {(0, 1): "#1f4fff", (1, 0): "#c00000",
                                         (0, -1): "#00b8d4", (-1, 0): "#5ad75a"}
    with pytest.raises(ParameterError, match="palette must be one of okabe-ito, paper"):
        check_palette("rainbow")
