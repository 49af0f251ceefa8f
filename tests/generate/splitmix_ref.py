"""SplitMix64 in Python integers, for reference implementations in tests.

The generator kernels draw from SplitMix64 (constants of Steele, Lea and
Flood 2014); a reference written against this class consumes the same
stream, so it must build the very same maze.
"""

from __future__ import annotations

M64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 with the kernels' ``below``."""

    def __init__(self, seed: int) -> None:
        self.state = seed & M64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        k = int(float(self.next() >> 11) * (1.0 / 9007199254740992.0) * n)
        return min(k, n - 1)
