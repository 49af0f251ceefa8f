"""Generator outputs pinned to the code before the compile-cost work.

The hashes below were computed with main at f4f75b2 (before kruskal's
small-grid path and the cheaper-to-compile Wilson kernel): SHA-256 of the
``to_matrix()`` bytes of the mazes of five seeds, per size. Kruskal's
sizes cross its small-path threshold (40,000 cells) and Wilson's cross the
three-block width (96 cells) from which its walks jump, so both paths of
each are pinned. A change that moves a single wall fails here.
"""

from __future__ import annotations

import hashlib

import pytest

from robomaze.generate import generate

SEEDS = (0, 1, 2, 12345, 2**40 + 3)

PINNED = {
    "kruskal": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "c2127ed02866f100608d",
        (7, 4): "62173910483b7d88567c",
        (10, 10): "da0331a232293e4147b1",
        (33, 17): "dbe1bfa0d1f2a5d579da",
        (64, 65): "599d2dccff7f2e8fb773",
        (95, 97): "a5d33db703dc4b8a3e4d",
        (96, 96): "5f5325cf68b6961bf57b",
        (100, 130): "c87ecc78039ca265dcd9",
        (160, 200): "7a404f3f6c31589d934b",
        (257, 129): "73d57208229bc3d2efef",
        (201, 200): "2917a6338a49e07fec3c",
        (250, 250): "2719b9b081efbc9465a7",
    },
    "wilson": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "d978623f993a6e06299a",
        (7, 4): "18e46022bdc8c14c19b3",
        (10, 10): "da52216f3003284d4a87",
        (33, 17): "994a7ecb6d2200c6a83d",
        (64, 65): "9e34d04723331b4d59a0",
        (95, 97): "1914b844968e03a16b7c",
        (96, 96): "9c2bb122979e24348192",
        (100, 130): "a7831c5bd5eda78e6b43",
        (160, 200): "a989f475184172d43fb1",
        (257, 129): "ed1c81e1cd24a702e0ea",
        (201, 200): "00fca3069e50b3c74798",
        (250, 250): "5a183f5a34bcb3552ba2",
    },
    "aldous_broder": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "5e362008e64f7c853866",
        (7, 4): "62855ef7ca5f0fd8a3b3",
        (10, 10): "7eb37beb4c4894b1bf71",
        (33, 17): "e82162de8d94a2b5adbc",
        (64, 65): "cbcc287ae995912b5d22",
        (95, 97): "dedfd77772b5a7a6a159",
        (96, 96): "8c68a75862fd952b2be1",
        (100, 130): "b4ee6ff296ae2b31bf5b",
        (160, 200): "21a6a88e1a5c0ed5e1f4",
        (257, 129): "6c1484c4b90b961fdf3a",
        (201, 200): "9072d032b03f1ac225e1",
        (250, 250): "1354f25506bd5af4a118",
    },
    "backtracker": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "0955b151ff9be77defcf",
        (7, 4): "0338da2c348a6b952ae1",
        (10, 10): "113c1caa0dffe39104a8",
        (33, 17): "2628f29ae0678e5c3685",
        (64, 65): "53e2dfafce095fa4cae2",
        (95, 97): "aebc3a7c80a66fcd0ebd",
        (96, 96): "f989164295feb954db1a",
        (100, 130): "978231e033da66b3706a",
        (160, 200): "b69931555dcf06316301",
        (257, 129): "d024d71b883ac5e34d13",
        (201, 200): "395ab3dae2935ed1d35c",
        (250, 250): "856894bc780464f6f768",
    },
    "mst": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "c2127ed02866f100608d",
        (7, 4): "62173910483b7d88567c",
        (10, 10): "da0331a232293e4147b1",
        (33, 17): "dbe1bfa0d1f2a5d579da",
        (64, 65): "599d2dccff7f2e8fb773",
        (95, 97): "a5d33db703dc4b8a3e4d",
        (96, 96): "5f5325cf68b6961bf57b",
        (100, 130): "c87ecc78039ca265dcd9",
        (160, 200): "7a404f3f6c31589d934b",
        (257, 129): "73d57208229bc3d2efef",
        (201, 200): "2917a6338a49e07fec3c",
        (250, 250): "2719b9b081efbc9465a7",
    },
}


@pytest.mark.parametrize("name,rows,cols", [(n, r, c) for n, sizes in PINNED.items()
                                            for r, c in sizes])
def test_mazes_are_byte_identical_to_before(name, rows, cols):
    h = hashlib.sha256()
    for s in SEEDS:
        h.update(generate(name, rows, cols, rng=s).to_matrix().tobytes())
    assert h.hexdigest()[:20] == PINNED[name][(rows, cols)]
