"""Direction colours of a drawn walk: one table for the window, the replay
exports and the browser pages.

``"okabe-ito"`` (the default) takes four colours of Okabe and Ito's
colour-universal-design set that stay apart under deuteranopia and
protanopia; ``"paper"`` is the palette of the original figures (right blue,
down red, left cyan, up green), whose up and down merge into one olive for a
deuteranope. ``tests/traverse/test_trav_palette.py`` checks both through
Machado et al.'s (2009) simulation with CIEDE2000.
"""

from __future__ import annotations

from ..errors import ParameterError

__all__ = ["PALETTES", "DEFAULT_PALETTE", "direction_colors", "check_palette"]

#: name -> {"right", "down", "left", "up", "turn"} hex colours.
PALETTES: dict[str, dict[str, str]] = {
    "okabe-ito": {"right": "#0072B2", "down": "#D55E00", "left": "#56B4E9",
                  "up": "#009E73", "turn": "#888888"},
    "paper": {"right": "#1f4fff", "down": "#e0201b", "left": "#00c8e0",
              "up": "#10a010", "turn": "#888888"},
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
