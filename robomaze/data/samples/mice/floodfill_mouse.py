"""A flood-fill mouse for the mms micromouse simulator (an example written for
robomaze; MIT, like robomaze).

It speaks today's mms mouse API as documented in the mms README
(github.com/mackorone/mms, "Mouse API"): commands go to stdout, answers come
from stdin, logging goes to stderr. It knows nothing of robomaze and runs in
mms itself as well as under ``robomaze mouse run MAZE -- python THIS_FILE``.

What it does:

1. asks the maze size; the goal is mms's, the centre cells;
2. searches to the centre, sensing the walls of each cell it enters
   (``wallFront``, ``wallLeft``, ``wallRight``) and flooding distances with
   unknown walls taken as open; it draws what it learns (``setWall``,
   ``setColor``, ``setText``);
3. drives back to the start the same way, learning more walls;
4. makes the fast run on known walls only, one ``moveForward N`` per
   straight, and logs mms's statistics (``getStat``) to stderr.

If the simulator's reset button was pressed (``wasReset``) it acknowledges
with ``ackReset`` and starts again from the start cell, keeping its map.
"""

import sys
from collections import deque

NORTH, EAST, SOUTH, WEST = range(4)
DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)


class Reset(Exception):
    """The simulator's reset button was pressed."""


class API:
    """The mms commands this mouse uses."""

    @staticmethod
    def send(line, answer=True):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        if not answer:
            return None
        reply = sys.stdin.readline()
        if not reply:
            sys.exit(0)                   # the simulator went away: nothing left to do
        return reply.strip()

    def maze_width(self):
        return int(self.send("mazeWidth"))

    def maze_height(self):
        return int(self.send("mazeHeight"))

    def wall(self, side):
        return self.send(side) == "true"

    def move_forward(self, n=1):
        return self.send("moveForward" if n == 1 else f"moveForward {n}") == "ack"

    def turn_left(self):
        self.send("turnLeft")

    def turn_right(self):
        self.send("turnRight")

    def set_wall(self, x, y, d):
        self.send(f"setWall {x} {y} {'nesw'[d]}", answer=False)

    def set_color(self, x, y, c):
        self.send(f"setColor {x} {y} {c}", answer=False)

    def set_text(self, x, y, text):
        self.send(f"setText {x} {y} {text}", answer=False)

    def clear_all_color(self):
        self.send("clearAllColor", answer=False)

    def was_reset(self):
        return self.send("wasReset") == "true"

    def ack_reset(self):
        self.send("ackReset")

    def get_stat(self, name):
        return self.send(f"getStat {name}")


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


class Mouse:
    """Pose, wall map and flood fill over the micromouse frame (x east, y north)."""

    def __init__(self, api):
        self.api = api
        self.w, self.h = api.maze_width(), api.maze_height()
        self.walls = {}                   # (x, y, d) -> True (wall) / False (open)
        self.x, self.y, self.d = 0, 0, NORTH
        xs = [self.w // 2 - 1, self.w // 2] if self.w % 2 == 0 else [self.w // 2]
        ys = [self.h // 2 - 1, self.h // 2] if self.h % 2 == 0 else [self.h // 2]
        self.centre = [(x, y) for x in xs for y in ys]

    def inside(self, x, y):
        return 0 <= x < self.w and 0 <= y < self.h

    def learn(self, x, y, d, wall):
        if (x, y, d) in self.walls:
            return
        self.walls[(x, y, d)] = wall
        nx, ny = x + DX[d], y + DY[d]
        if self.inside(nx, ny):
            self.walls[(nx, ny, (d + 2) % 4)] = wall
        if wall:
            self.api.set_wall(x, y, d)

    def sense(self):
        for turn, name in ((0, "wallFront"), (1, "wallRight"), (3, "wallLeft")):
            self.learn(self.x, self.y, (self.d + turn) % 4, self.api.wall(name))

    def open(self, x, y, d, optimistic):
        if not self.inside(x + DX[d], y + DY[d]):
            return False
        known = self.walls.get((x, y, d))
        return known is False or (known is None and optimistic)

    def flood(self, targets, optimistic):
        dist = {t: 0 for t in targets}
        queue = deque(targets)
        while queue:
            x, y = queue.popleft()
            for d in range(4):
                n = (x + DX[d], y + DY[d])
                if n not in dist and self.open(x, y, d, optimistic):
                    dist[n] = dist[(x, y)] + 1
                    queue.append(n)
        return dist

    def face(self, d):
        turn = (d - self.d) % 4
        if turn == 1:
            self.api.turn_right()
        elif turn == 3:
            self.api.turn_left()
        elif turn == 2:
            self.api.turn_right()
            self.api.turn_right()
        self.d = d

    def next_step(self, dist, optimistic):
        """The heading of a neighbour one step closer (straight on first)."""
        here = dist[(self.x, self.y)]
        for turn in (0, 1, 3, 2):
            d = (self.d + turn) % 4
            n = (self.x + DX[d], self.y + DY[d])
            if self.open(self.x, self.y, d, optimistic) and dist.get(n, here) == here - 1:
                return d
        return None

    def explore(self, targets):
        """Walk to ``targets`` one cell at a time, learning walls on the way."""
        while (self.x, self.y) not in targets:
            if self.api.was_reset():
                raise Reset()
            self.sense()
            dist = self.flood(targets, optimistic=True)
            if (self.x, self.y) not in dist:
                log("no way to", targets)
                sys.exit(4)
            d = self.next_step(dist, optimistic=True)
            self.face(d)
            if not self.api.move_forward():
                log("unexpected crash at", self.x, self.y)
                sys.exit(5)
            self.x, self.y = self.x + DX[d], self.y + DY[d]
            self.api.set_color(self.x, self.y, "c")
            self.api.set_text(self.x, self.y, str(dist[(self.x, self.y)]))
        self.sense()

    def fast_run(self, targets):
        """Drive the best known route, one moveForward per straight."""
        dist = self.flood(targets, optimistic=False)
        if (self.x, self.y) not in dist:
            log("no known route to the centre")
            sys.exit(6)
        while (self.x, self.y) not in targets:
            d = self.next_step(dist, optimistic=False)
            self.face(d)
            n = 0
            x, y = self.x, self.y
            while (x, y) not in targets and self.next_from(x, y, d, dist):
                x, y = x + DX[d], y + DY[d]
                n += 1
            if not self.api.move_forward(n):
                log("crash in the fast run")
                sys.exit(7)
            self.x, self.y = x, y
            self.api.set_color(x, y, "G")

    def next_from(self, x, y, d, dist):
        n = (x + DX[d], y + DY[d])
        return self.open(x, y, d, False) and dist.get(n, -1) == dist[(x, y)] - 1


def main():
    api = API()
    mouse = Mouse(api)
    log(f"maze {mouse.w} x {mouse.h}, centre {mouse.centre}")
    while True:
        try:
            mouse.explore(mouse.centre)
            mouse.explore([(0, 0)])
            break
        except Reset:
            api.ack_reset()
            mouse.x, mouse.y, mouse.d = 0, 0, NORTH
    api.clear_all_color()
    mouse.fast_run(mouse.centre)
    for stat in ("total-distance", "total-turns", "best-run-distance", "best-run-turns",
                 "score"):
        log(f"{stat}: {api.get_stat(stat)}")


if __name__ == "__main__":
    main()
