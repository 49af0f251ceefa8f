"""Direction colours of a drawn walk: one table for the window, the replay
exports and the browser pages.

``"okabe-ito"`` (the default) takes four colours of Okabe and Ito's
colour-universal-design set that stay apart under deuteranopia and
protanopia; ``"paper"`` is the palette of the original figures (right blue,
down red, left cyan, up green) in shades that differ in lightness too: the
figures' own red and green merged into one olive for a deuteranope, so its
red is darker and its green lighter here. Each palette has a ``hint``
colour (a dark wine, drawn dashed with dots) apart from all four
directions. ``tests/traverse/test_trav_palette.py`` checks every palette
the same way: CIEDE2000 >= 15 between any two of the directions and the
hint, under normal vision and Machado et al.'s (2009) deuteranopia and
protanopia simulations, and >= 20 from the white floor.
"""

from __future__ import annotations

from ..errors import ParameterError

__all__ = ["PALETTES", "DEFAULT_PALETTE", "direction_colors", "check_palette"]

#: name -> {"right", "down", "left", "up", "turn", "hint"} hex colours.
PALETTES: dict[str, dict[str, str]] = {
    "okabe-ito": {"right": "#0072B2", "down": "#D55E00", "left": "#56B4E9",
                  "up": "#009E73", "turn": "#888888", "hint": "#882255"},
    "paper": {"right": "#1f4fff", "down": "#c00000", "left": "#00b8d4",
              "up": "#5ad75a", "turn": "#888888", "hint": "#882255"},
}
DEFAULT_PALETTE = "okabe-ito"
_STEPS = {"right": (0, 1), "down": (1, 0), "left": (0, -1), "up": (-1, 0)}


def check_palette(name: str) -> str:
    """``name`` if it is a palette, else a :class:`ParameterError` listing them."""
    if name not in PALETTES:
        raise ParameterError(f"palette must be one of {', '.join(PALETTES)}, got {name!r}")
    return name


def direction_colors(name: str = DEFAULT_PALETTE) -> dict[tuple[int, int], str]:
    """Colour of a move by its ``(drow, dcol)`` step in palette ``name``.

    >>> direction_colors("paper")[(0, 1)], direction_colors()[(1, 0)]
    ('#1f4fff', '#D55E00')
    """
    pal = PALETTES[check_palette(name)]
    return {step: pal[k] for k, step in _STEPS.items()}
