"""Generator outputs pinned to the code before the compile-cost work.

The hashes below were computed with main at f4f75b2 (before kruskal"s
small-grid path and the cheaper-to-compile Wilson kernel): SHA-256 of the
``to_matrix()`` bytes of the mazes of five seeds, per size. Kruskal"s
sizes cross its small-path threshold (40,000 cells) and Wilson"s cross the
three-block width (96 cells) from which its walks jump, so both paths of
each are pinned. A change that moves a single wall fails here.
"""

from __future__ import annotations

import hashlib

import pytest

from robomaze.generate import generate

SEEDS = (0, 1, 2, 12345, 2**40 + 3)

PINNED: dict = {
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
    "hunt_and_kill": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "0955b151ff9be77defcf",
        (7, 4): "c1883aac9391182cee7e",
        (10, 10): "d721e523045bcebd7b19",
        (33, 17): "7783b4b7a7d41113e3bc",
        (64, 65): "92e4508c95258575f64e",
        (95, 97): "da6cb46b0bf4e4d374eb",
        (96, 96): "cefee9d419caadfa5e78",
        (100, 130): "a902b608ea58dd9d981a",
        (160, 200): "f82b29e99ba6acf4114b",
        (257, 129): "e385f340cb37961db60c",
        (201, 200): "2a72bd4ab1d872647934",
        (250, 250): "2afc1fe531f49e31e05a",
    },
    "prim": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "640c923075421c6d8918",
        (7, 4): "1a1704416df645f55b20",
        (10, 10): "06fb7e4033c28305b0dd",
        (33, 17): "404d4d3f4fd9a5edf170",
        (64, 65): "a1df5cffab8c26372ac1",
        (95, 97): "6aa89fd515cbdab6ec6e",
        (96, 96): "983d9dd2ef709695bfcb",
        (100, 130): "3015b145bf2a661cffa9",
        (160, 200): "83e3f7f90149a868de70",
        (257, 129): "8cf7b1085dfd11b1c36c",
        (201, 200): "295313db89695e72fbac",
        (250, 250): "63ee57deeaf337ef8e1e",
    },
    "prim_frontier": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "6db0d4061c5ea9f27b8b",
        (7, 4): "8179403ea3e74791307e",
        (10, 10): "d0f0e083159ce21144a8",
        (33, 17): "790c26a1bdbf821da693",
        (64, 65): "6162878dc8e013fcc084",
        (95, 97): "e56c6cf2964ac459d19d",
        (96, 96): "e4796b950d9a72ba49e8",
        (100, 130): "d34087530f43fd2d78ef",
        (160, 200): "3fb766e483e55d5f46f8",
        (257, 129): "b021110f073c998475c8",
        (201, 200): "aabb222e0bcff429e360",
        (250, 250): "119323095fb72a377743",
    },
    "eller": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "a07dc70639f9e599d312",
        (7, 4): "386502aa3099571a4416",
        (10, 10): "91f5d8bd5884ebbedafb",
        (33, 17): "807e6cc563fe2699b2fd",
        (64, 65): "6566dbd8a5cd8db10477",
        (95, 97): "1f65670ab2f00162b0e9",
        (96, 96): "30755855a403f2ed5aa4",
        (100, 130): "2aa0610c378eee1fea20",
        (160, 200): "dd1fb1c1bdb6942180a3",
        (257, 129): "08098e64eaa1f0f6bcd6",
        (201, 200): "4f66888f7e09c51a0fa0",
        (250, 250): "4fdcb2320b7dd619bef3",
    },
    "sidewinder": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "c896dfdc6d1ef9ce31f1",
        (7, 4): "b15f0566b388ffb58933",
        (10, 10): "0e6547475267b835afd0",
        (33, 17): "cdf25ec8db8f5c2f85cd",
        (64, 65): "dd654f20e4f3b1721055",
        (95, 97): "cbbe7d85b04396bb19c1",
        (96, 96): "95a09346cceb2f57bff6",
        (100, 130): "dfbadd59f4a51b279d53",
        (160, 200): "af78ec5c73dcd486fad5",
        (257, 129): "098cd59c79af64426e75",
        (201, 200): "2f26aaf7541e1e5706a6",
        (250, 250): "f14f812f8e94b1481a83",
    },
    "binary_tree": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "f564b012f692b43e23c5",
        (7, 4): "8770e323728579f3de77",
        (10, 10): "7ed19b8261b039e26b9e",
        (33, 17): "4b77f665bbb14e5bb6c8",
        (64, 65): "bbc6ff7fb327f0866aa9",
        (95, 97): "813dff7d8b9355122a4a",
        (96, 96): "2c71de8212d172aaab04",
        (100, 130): "598b3141878d496e9897",
        (160, 200): "1e38113c0797ec2157dd",
        (257, 129): "556c34c2713acdd43dc8",
        (201, 200): "aee12a6f38671324d462",
        (250, 250): "a0e4f3e254de0875568d",
    },
    "division": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "6b68cf93fb2602a5f623",
        (7, 4): "222c1f55fb166bea41fc",
        (10, 10): "45884aa9abe41e707ba0",
        (33, 17): "d8480ed6ceb82b23d7e3",
        (64, 65): "2de7cb175481929fd6db",
        (95, 97): "6a38c6b4a5b88cd3050e",
        (96, 96): "c3c381b3fe64793c8549",
        (100, 130): "63eaa457a306e6e8bde4",
        (160, 200): "a5ac7d3c5ff24340ee93",
        (257, 129): "083764ea99dea493c1b1",
        (201, 200): "16bf98c2398eb0b91442",
        (250, 250): "07d72ab69bb3b8bdd511",
    },
    "wall_adder": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "8835997d6143ed56b04b",
        (7, 4): "b221b18e0534b6bf6cbc",
        (10, 10): "a38d0a35b5055b6141d4",
        (33, 17): "ba4a1d9d329b2d42ad7d",
        (64, 65): "ca174f2504f9b476fd4d",
        (95, 97): "6969c8506d0fbb2f3480",
        (96, 96): "a33a34df595c3c461d05",
        (100, 130): "2b840271bb418d596f1e",
        (160, 200): "b8fc402a30e4f58e0724",
        (257, 129): "af62c500ad6049797f93",
        (201, 200): "def8a504f9ffff798463",
        (250, 250): "f0827e0d843695032d31",
    },
    "scheme_dfs": {
        (1, 1): "758d34c250b8d4d05ee4",
        (1, 7): "b9e7cae8ad65960e7818",
        (6, 1): "741ea6b10761b369b3e0",
        (2, 3): "2ed51cc88b7514b85e17",
        (7, 4): "ed433c2c12aa0f2dc77f",
        (10, 10): "2dbc74e4ccb686eb4c73",
        (33, 17): "8dbdcbd109c25f4acc9a",
        (64, 65): "b47e234d1521ff9cfb25",
        (95, 97): "c8f53332d62e4383da7b",
        (96, 96): "8af431a23af72a49d0f1",
        (100, 130): "a867ba73014204d087a0",
        (160, 200): "d4d754b6812fb4e86c13",
        (257, 129): "5f5ec372abb0b863176c",
        (201, 200): "ddf494018b9837664de0",
        (250, 250): "3107fb1fc251f63af4a9",
    },
}
# one MST of the same keys: mst and kruskal draw the same maze
PINNED["mst"] = PINNED["kruskal"]
# growing_tree's default selection (newest) is the backtracker, draw for draw
PINNED["growing_tree"] = PINNED["backtracker"]


#: growing_tree with its options: (selection, mix, rows, cols) -> hash.
PINNED_GROWING_TREE = {
    ("random", 0.5, 1, 5): "63f93158d290afcf7441",
    ("random", 0.5, 9, 7): "a57829704750d550ca4b",
    ("random", 0.5, 64, 65): "cbc5c0a31721b6194419",
    ("random", 0.5, 201, 200): "5b7b244823424383bc0f",
    ("mixed", 0.3, 1, 5): "63f93158d290afcf7441",
    ("mixed", 0.3, 9, 7): "ad9344b152e7eebb6980",
    ("mixed", 0.3, 64, 65): "917f68aa9c85f1bfcdd5",
    ("mixed", 0.3, 201, 200): "71d8aae1b5c7b66b8369",
}


@pytest.mark.parametrize("name,rows,cols", [(n, r, c) for n, sizes in PINNED.items()
                                            for r, c in sizes])
def test_mazes_are_byte_identical_to_before(name, rows, cols):
    h = hashlib.sha256()
    for s in SEEDS:
        h.update(generate(name, rows, cols, rng=s).to_matrix().tobytes())
    assert h.hexdigest()[:20] == PINNED[name][(rows, cols)]


@pytest.mark.parametrize("selection,mix,rows,cols", list(PINNED_GROWING_TREE))
def test_growing_tree_options_are_byte_identical_to_before(selection, mix, rows, cols):
    h = hashlib.sha256()
    for s in SEEDS:
        h.update(generate("growing_tree", rows, cols, rng=s, selection=selection,
                          mix=mix).to_matrix().tobytes())
    assert h.hexdigest()[:20] == PINNED_GROWING_TREE[(selection, mix, rows, cols)]


def test_braided_mazes_are_byte_identical_to_before():
    # braid's kernel draws from the same SplitMix64 stream (hash from f4f75b2)
    h = hashlib.sha256()
    for g in ("backtracker", "kruskal", "wilson", "eller"):
        for r, c in ((5, 5), (30, 41), (120, 90)):
            for s in (0, 1, 7):
                for b in (0.3, 1.0):
                    h.update(generate(g, r, c, rng=s, braid=b).to_matrix().tobytes())
    assert h.hexdigest()[:20] == "895014ccb121695f2158"
