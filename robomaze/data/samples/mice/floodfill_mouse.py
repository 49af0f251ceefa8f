"""A correct flood-fill mouse speaking the mms protocol (an example written for robomaze; MIT, like robomaze).

It knows nothing of robomaze: it asks the maze size, searches to the centre
with unknown walls assumed open, drives back to the start, then runs the
shortest known route to the centre and exits. It also exercises the display
commands (setWall, setColor, setText) like a real mms mouse.
"""

import sys
from collections import deque


def cmd(line, answer=True):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    if answer:
        reply = sys.stdin.readline()
        if not reply:
            sys.exit(3)
        return reply.strip()
    return None


W = int(cmd("mazeWidth"))
H = int(cmd("mazeHeight"))
DX = (0, 1, 0, -1)   # N E S W
DY = (1, 0, -1, 0)
walls = {}           # (x, y, d) -> True/False
x, y, h = 0, 0, 0


def set_wall(cx, cy, d, w):
    walls[(cx, cy, d)] = w
    nx, ny = cx + DX[d], cy + DY[d]
    if 0 <= nx < W and 0 <= ny < H:
        walls[(nx, ny, (d + 2) % 4)] = w
    if w:
        cmd(f"setWall {cx} {cy} {'nesw'[d]}", answer=False)


def passable(cx, cy, d, optimistic):
    nx, ny = cx + DX[d], cy + DY[d]
    if not (0 <= nx < W and 0 <= ny < H):
        return False
    w = walls.get((cx, cy, d))
    return (w is None and optimistic) or w is False


def flood(targets, optimistic=True):
    dist = {t: 0 for t in targets}
    q = deque(targets)
    while q:
        cx, cy = q.popleft()
        for d in range(4):
            if passable(cx, cy, d, optimistic):
                n = (cx + DX[d], cy + DY[d])
                if n not in dist:
                    dist[n] = dist[(cx, cy)] + 1
                    q.append(n)
    return dist


def sense():
    for rel, name in ((0, "wallFront"), (1, "wallRight"), (3, "wallLeft")):
        set_wall(x, y, (h + rel) % 4, cmd(name) == "true")


def face(d):
    global h
    turn = (d - h) % 4
    if turn == 1:
        cmd("turnRight")
    elif turn == 3:
        cmd("turnLeft")
    elif turn == 2:
        cmd("turnRight")
        cmd("turnRight")
    h = d


def go(targets, optimistic=True, learn=True):
    global x, y
    while (x, y) not in targets:
        if learn:
            sense()
        dist = flood(targets, optimistic)
        if (x, y) not in dist:
            sys.exit(4)
        for rel in (0, 1, 3, 2):
            d = (h + rel) % 4
            n = (x + DX[d], y + DY[d])
            if passable(x, y, d, optimistic) and dist.get(n, 1 << 30) == dist[(x, y)] - 1:
                break
        face(d)
        if walls.get((x, y, d)) is None:
            continue
        if cmd("moveForward") != "ack":
            sys.exit(5)
        x, y = x + DX[d], y + DY[d]
        cmd(f"setColor {x} {y} G", answer=False)
        cmd(f"setText {x} {y} {dist[(x, y)]}", answer=False)


xs = [W // 2 - 1, W // 2] if W % 2 == 0 else [W // 2]
ys = [H // 2 - 1, H // 2] if H % 2 == 0 else [H // 2]
centre = [(cx, cy) for cx in xs for cy in ys]
go(centre)
sense()
go([(0, 0)])
go(centre, optimistic=False, learn=False)
cmd("clearAllColor", answer=False)
