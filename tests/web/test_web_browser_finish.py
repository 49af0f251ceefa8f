"""Issue 38 in a real browser: play that people finish.

Each "What to build" bullet on the phone (390x844, touch) and the desktop
(1280x800) profiles of headless Chromium: the message banner in every state,
a finish map that fits, big mazes (runs, held buttons, haloed player, goal
arrow, goal in fog, whole-pixel camera), move replies that carry only what
changed, the replay page on a phone, and axe-core (vendored, MPL-2.0) on
eight page states. One browser per profile for the module.
"""

from __future__ import annotations

import json
import signal
import statistics
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from robomaze.cli._world import build_maze
from robomaze.traverse import read_record

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
import test_web_browser as base  # noqa: E402  (skips the module when chromium is missing)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

AXE = (HERE / "vendor" / "axe.min.js").read_text(encoding="utf-8")
PROFILES = ("desktop", "phone")


@pytest.fixture(scope="module")
def drivers(tmp_path_factory):
    made = {}

    def get(name):
        if name not in made:
            made[name] = base._driver(tmp_path_factory, f"{name}-38", phone=name == "phone")
        return made[name]
    yield get
    for d in made.values():
        d.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    walks = tmp_path_factory.mktemp("walks38")
    proc, url = base._serve(walks, "backtracker", "10x10", "--seed", "5")
    yield url, walks
    proc.terminate()
    proc.wait(10)


def _size(driver):
    return driver.execute_script("return [window.innerWidth, window.innerHeight]")


def _banner_inside(driver):
    r = driver.execute_script("""
        const b = document.getElementById('banner').getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom, getComputedStyle(document.getElementById('banner')).display];""")
    w, h = _size(driver)
    assert r[4] != "none", "no banner shown"
    assert r[0] >= 0 and r[1] >= 0 and r[2] <= w + 0.5 and r[3] <= h + 0.5, (r, w, h)
    return driver.find_element(By.ID, "bannertext").text


def _fresh(driver, url):
    """Open ``url`` at the start of its maze (the other profile may have walked it)."""
    base._open(driver, url)
    if base._count(driver, "moves") or base._count(driver, "bumps") or \
            base._body(driver, "finished") == "1":
        driver.find_element(By.ID, "again").click()
        WebDriverWait(driver, 10).until(
            lambda d: base._count(d, "moves") + base._count(d, "bumps") == 0)
        base._idle(driver)


def _view(driver) -> dict:
    return driver.execute_script("return RM.view()")


def _key(driver, key, n=1):
    canvas = driver.find_element(By.ID, "maze")
    for _ in range(n):
        canvas.send_keys(key)


def _walk_keys(driver, cells):
    keys = base._keys_for(cells)
    canvas = driver.find_element(By.ID, "maze")
    for k in keys:
        canvas.send_keys(k)
    base._idle(driver)


def _axe(driver) -> list:
    driver.execute_script(AXE)
    res = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(
          v => [v.id, v.impact, v.nodes.map(n => n.target.join(' ')).slice(0, 3)])));""")
    return [v for v in res if v[1] in ("serious", "critical")]


def _contrast(a, b) -> float:
    def lum(c):
        c = np.asarray(c[:3], float) / 255
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    la, lb = sorted((lum(a), lum(b)))
    return (lb + 0.05) / (la + 0.05)


def _pixels(driver, x, y, w=1, h=1):
    return driver.execute_script(
        "const c = document.getElementById('maze').getContext('2d');"
        "return Array.from(c.getImageData(arguments[0], arguments[1], arguments[2], arguments[3]).data);",
        int(x), int(y), int(w), int(h))


# ---------------------------------------------------------------- 1. messages
@pytest.mark.parametrize("profile", PROFILES)
def test_banner_for_refused_url_second_tab_and_finish(drivers, server, profile):
    d = drivers(profile)
    url, walks = server
    # a refused link: said in the banner, nothing reflected as markup
    base._open(d, url + "?gen=%3Cimg%20src=x%3E&size=4x4&seed=1")
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "banner") == "refused")
    text = _banner_inside(d)
    assert "refused" in text and "gen must be one of" in text
    assert not d.find_elements(By.CSS_SELECTOR, "#banner img")
    d.find_element(By.ID, "dismiss").click()
    # a second tab takes the game: the first is told in its banner
    base._open(d, url + "?mode=full&gen=backtracker&size=10x10&seed=5")
    d.find_element(By.ID, "again").click()        # another profile may have finished it
    base._idle(d)
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    base._open(d, url)
    d.switch_to.window(d.window_handles[-1])
    d.close()
    d.switch_to.window(first)
    _key(d, Keys.ARROW_DOWN)
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "banner") == "elsewhere")
    assert "another tab" in _banner_inside(d)
    d.find_element(By.ID, "playhere").click()
    base._idle(d)
    # the finish: in the banner at the top, whatever the screen
    maze = build_maze("backtracker", 10, 10, seed=5, braid=0.0, placement="corners")
    d.find_element(By.ID, "again").click()
    base._idle(d)
    _walk_keys(d, maze.solution())
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "banner") == "finish")
    assert "Goal reached" in _banner_inside(d)


@pytest.mark.parametrize("profile", PROFILES)
def test_sigkill_then_restart_continues_the_walk(drivers, tmp_path, profile):
    d = drivers(profile)
    walks = tmp_path / "walks"
    proc, url = base._serve(walks, "backtracker", "10x10", "--seed", "7", "--mode", "trail")
    try:
        base._open(d, url, "maze 1 (trail)")
        maze = build_maze("backtracker", 10, 10, seed=7, braid=0.0, placement="corners")
        route = maze.solution()
        _walk_keys(d, route[:7])
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        # no key pressed: the heartbeat notices
        WebDriverWait(d, 5).until(lambda dr: base._body(dr, "gone") == "1")
        assert "server has stopped" in _banner_inside(d)
        (path,) = walks.glob("walk-*.jsonl")
        rec = read_record(path)
        r, c = rec.positions[-1]
        assert _view(d)["position"] == [2 * int(r) + 1, 2 * int(c) + 1]   # drawn = record's end
        t = base._text(d, "#timer")
        _key(d, Keys.ARROW_DOWN)
        assert base._text(d, "#timer") == t
        # a restarted server: the page reconnects and continues the same record
        proc, url2 = base._serve(walks, "backtracker", "10x10", "--seed", "7", "--port", "0")
        d.get(url2)
        WebDriverWait(d, 10).until(lambda dr: base._body(dr, "banner") == "resume")
        assert "walk-001.jsonl" in _banner_inside(d)
        d.find_element(By.ID, "continue").click()
        base._idle(d)
        assert base._count(d, "moves") == 6
        _walk_keys(d, route[6:])
        WebDriverWait(d, 10).until(lambda dr: base._body(dr, "finished") == "1")
        rec = read_record(path)
        assert rec.reached_goal and rec.positions.tolist() == [list(p) for p in route]
        assert sorted(p.name for p in walks.glob("*.jsonl")) == ["walk-001.jsonl"]
        # the replay page lists every record in the folder
        d.get(url2.split("?")[0] + "replay")
        WebDriverWait(d, 10).until(lambda dr: base._body(dr, "records") == "1")
    finally:
        proc.kill()
        proc.wait(10)


# ---------------------------------------------------------------- 2. a finish that fits
@pytest.mark.parametrize("profile", PROFILES)
def test_the_whole_maze_at_the_finish_and_a_folded_keyboard_table(drivers, server, profile,
                                                                   tmp_path):
    d = drivers(profile)
    url, walks = server
    # wilson 20x30 (where the numbers overlapped) on the desktop; a phone held
    # upright shows a tall maze: 30x20
    rows, cols = (20, 30) if profile == "desktop" else (30, 20)
    base._open(d, url + f"?gen=wilson&size={rows}x{cols}&seed=3&mode=full")
    maze = build_maze("wilson", rows, cols, seed=3, braid=0.0, placement="corners")
    walk = base._detour(maze, maze.solution())
    _walk_keys(d, walk)
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "finished") == "1")
    box = d.execute_script("const r = document.getElementById('maze').getBoundingClientRect();"
                           "return [r.left, r.top, r.right, r.bottom, r.height];")
    w, h = _size(d)
    assert base._body(d, "camera") == "fit"
    v = _view(d)
    assert v["cam"] == [0, 0]
    # the whole maze is in the canvas and the canvas on screen
    assert d.execute_script("return document.getElementById('maze').width") == v["cols"] * v["s"]
    assert box[0] >= 0 and box[2] <= w and box[1] >= 0 and box[3] <= h + 0.5, (box, w, h)
    if profile == "phone":
        assert box[4] >= 300
    # and below the banner, which says the goal is reached
    assert d.execute_script(
        "return document.getElementById('banner').getBoundingClientRect().bottom") <= box[1] + 0.5
    base._shot(d, tmp_path, f"web-play-{profile}-finish-fits.png")
    # errors first, the rest folded; the table is reached by keyboard
    assert int(base._text(d, "#errsections")) >= 1
    first = d.find_element(By.CSS_SELECTOR, "#finish .tablewrap")
    assert first.get_attribute("tabindex") == "0"
    errors = [int(td.text) for td in first.find_elements(By.CSS_SELECTOR, "tbody tr td:nth-child(6)")]
    assert errors and min(errors) > 0 and errors == sorted(errors, reverse=True)
    folded = d.find_element(By.ID, "goodsections")
    assert folded.get_attribute("open") is None
    d.execute_script("arguments[0].focus()", first)
    assert d.switch_to.active_element == first
    # section numbers: none overlaps another
    boxes = d.execute_script("return RM.lastLabels")
    assert boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and
                        a[1] < b[1] + b[3] and b[1] < a[1] + a[3]), (a, b)


# ---------------------------------------------------------------- 3. big mazes
def _cell_of(v, pos):
    return ((pos[0] - 1) // 2, (pos[1] - 1) // 2)


@pytest.mark.parametrize("profile", PROFILES)
def test_big_maze_runs_held_buttons_marker_goal_arrow_and_fog(drivers, server, profile):
    d = drivers(profile)
    url, walks = server
    # a seed whose start has a corridor of at least 3 cells (the same every run)
    for seed in range(2, 40):
        maze = build_maze("backtracker", 60, 40, seed=seed, braid=0.0, placement="corners")
        prev, cell, n = maze.start, list(maze.neighbors(maze.start))[0], 1
        while cell not in maze.goals and len(list(maze.neighbors(cell))) == 2:
            (nxt,) = [c for c in maze.neighbors(cell) if c != prev]
            prev, cell, n = cell, nxt, n + 1
        if len(list(maze.neighbors(maze.start))) == 1 and n >= 3:
            break
    _fresh(d, url + f"?gen=backtracker&size=60x40&seed={seed}&mode=explorer")
    assert base._body(d, "camera") == "follow"
    assert base._body(d, "goalarrow") == "1"           # the goal is off screen: an arrow
    # a long swipe (or Shift+arrow) runs to the next junction: one move per cell
    start = maze.start
    side = next(s for s, (dr, dc) in (("E", (0, 1)), ("S", (1, 0)))
                if (start[0] + dr, start[1] + dc) in set(maze.neighbors(start)))
    if profile == "phone":
        dx, dy = (300, 0) if side == "E" else (0, 300)
        base._swipe(d, dx, dy)
    else:
        d.find_element(By.ID, "maze").send_keys(Keys.SHIFT + (Keys.ARROW_RIGHT if side == "E" else Keys.ARROW_DOWN))
    base._idle(d)
    ran = base._count(d, "moves")
    # the reference run on the true maze: round the bends to the first cell
    # that is not a corridor (a junction, a dead end) or the goal
    step = (0, 1) if side == "E" else (1, 0)
    prev, cell, n = start, (start[0] + step[0], start[1] + step[1]), 1
    while cell not in maze.goals and len(list(maze.neighbors(cell))) == 2:
        (nxt,) = [c for c in maze.neighbors(cell) if c != prev]
        prev, cell, n = cell, nxt, n + 1
    assert ran == n >= 3
    v = _view(d)
    assert _cell_of(v, v["position"]) == cell
    # a held pad button repeats
    before = base._count(d, "moves") + base._count(d, "bumps")
    btn = d.find_element(By.CSS_SELECTOR, "#pad .abs.up")
    r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", btn)
    d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": r[0], "y": r[1], "button": "left", "clickCount": 1})
    import time
    time.sleep(1.2)
    d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": r[0], "y": r[1], "button": "left", "clickCount": 1})
    base._idle(d)
    after = base._count(d, "moves") + base._count(d, "bumps")
    assert after - before >= 4
    # the page's record equals the server's
    st = base._get_state(url)
    assert st["moves"] == base._count(d, "moves")
    # the header is compact on a phone
    if profile == "phone":
        top = d.execute_script("return document.getElementById('view').getBoundingClientRect().top")
        assert top <= 110, top


@pytest.mark.parametrize("profile", PROFILES)
def test_no_hairlines_at_odd_canvas_heights(drivers, server, profile, height=801):
    d = drivers(profile)
    url, _ = server
    w = 390 if profile == "phone" else 1280
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": w, "height": height, "deviceScaleFactor": 1, "mobile": profile == "phone"})
    try:
        base._open(d, url + "?gen=backtracker&size=60x40&seed=2&mode=full")
        for h in range(height, height - 12, -1):
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": w, "height": h, "deviceScaleFactor": 1, "mobile": profile == "phone"})
            d.execute_script("window.dispatchEvent(new Event('resize'))")
            ch = d.execute_script("return document.getElementById('maze').height")
            if ch % 2:
                break
        assert ch % 2 == 1
        _key(d, Keys.ARROW_DOWN, 3)
        base._idle(d)
        cw = d.execute_script("return document.getElementById('maze').width")
        px = np.array(_pixels(d, 0, 0, cw, ch), dtype=np.int32).reshape(ch, cw, 4)[..., :3]
        grey = (px[..., 0] == px[..., 1]) & (px[..., 1] == px[..., 2]) & \
            ~np.isin(px[..., 0], [0, 255, 0x50, 0x88])
        # a hairline: a row (or column) greyed across most of the view
        assert grey.mean(axis=1).max() < 0.3 and grey.mean(axis=0).max() < 0.3
    finally:
        if profile == "phone":
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        else:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})


# ---------------------------------------------------------------- 4. send what changed
@pytest.mark.parametrize("profile", PROFILES)
def test_explorer_replies_are_small_and_the_page_view_matches_the_server(drivers, server,
                                                                          profile):
    d = drivers(profile)
    url, _ = server
    base._open(d, url + "?gen=backtracker&size=100x100&seed=4&mode=explorer")
    d.execute_script("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(5000)")
    maze = build_maze("backtracker", 100, 100, seed=4, braid=0.0, placement="corners")
    route = maze.solution()
    walk = route[:41]
    canvas = d.find_element(By.ID, "maze")
    for k in base._keys_for(walk):
        canvas.send_keys(k)
        base._idle(d)                      # one request per move, as a player's keys go
    sizes = d.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/move'))"
        ".map(e => e.encodedBodySize)")
    assert len(sizes) == 40
    assert statistics.mean(sizes) <= 2048, statistics.mean(sizes)
    st = base._get_state(url)
    v = _view(d)
    assert v["walls"] == st["walls"] and v["trail"] == st["trail"]


# ---------------------------------------------------------------- 5. replay page on a phone
def _post(url, path, body):
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def _walk_by_api(url, gen, rows, cols, seed) -> int:
    """Walk a maze's solution through the API (40 moves a request); the record's index."""
    _post(url, "api/new", {"gen": gen, "size": f"{rows}x{cols}", "seed": seed, "mode": "full",
                           "next": False})
    route = build_maze(gen, rows, cols, seed=seed, braid=0.0, placement="corners").solution()
    names = {(0, 1): "E", (1, 0): "S", (0, -1): "W", (-1, 0): "N"}
    moves = [[names[(b[0] - a[0], b[1] - a[1])], 0.1 * i] for i, (a, b) in
             enumerate(zip(route, route[1:]))]
    for k in range(0, len(moves), 40):
        st = _post(url, "api/move", {"moves": moves[k:k + 40]})
    assert st["finished"]
    return st["record"]["index"]



@pytest.mark.parametrize("profile", PROFILES)
def test_replay_page_fits_zooms_and_follows(drivers, server, profile):
    d = drivers(profile)
    url, walks = server
    index = _walk_by_api(url, "backtracker", 60, 40, 9)
    d.get(url + f"replay?record={index}")
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "frame") == "0")
    w, _ = _size(d)
    assert d.execute_script("return document.documentElement.scrollWidth") <= w
    assert base._body(d, "camera") == "follow" and int(base._body(d, "cellpx")) >= 12
    cell = int(base._body(d, "cellpx"))
    d.find_element(By.ID, "zoomout").click()
    assert int(base._body(d, "cellpx")) < cell
    d.find_element(By.ID, "zoomin").click()
    d.find_element(By.ID, "zoomin").click()
    assert int(base._body(d, "cellpx")) > cell
    assert d.execute_script("return document.documentElement.scrollWidth") <= w


# ---------------------------------------------------------------- 6. accessible
@pytest.mark.parametrize("profile", PROFILES)
def test_axe_finds_nothing_serious_in_every_page_state(drivers, server, profile):
    d = drivers(profile)
    url, walks = server
    found = {}
    base._open(d, url + "?gen=backtracker&size=10x10&seed=5&mode=full")
    found["start"] = _axe(d)
    maze = build_maze("backtracker", 10, 10, seed=5, braid=0.0, placement="corners")
    route = maze.solution()
    _walk_keys(d, route[:5])
    found["mid-walk"] = _axe(d)
    d.find_element(By.ID, "optbtn").click()
    found["options"] = _axe(d)
    d.find_element(By.ID, "optclose").click()
    _walk_keys(d, route[4:])
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "finished") == "1")
    found["finish"] = _axe(d)
    d.get(url + "replay")
    WebDriverWait(d, 10).until(lambda dr: base._body(dr, "frame") == "0")
    found["replay"] = _axe(d)
    assert found == {k: [] for k in found}, found


@pytest.mark.parametrize("profile", PROFILES)
def test_position_and_open_ways_are_said_in_fog_modes(drivers, server, profile):
    d = drivers(profile)
    url, _ = server
    _fresh(d, url + "?gen=backtracker&size=10x10&seed=5&mode=explorer")
    label = d.find_element(By.ID, "maze").get_attribute("aria-label")
    assert "maze of 10 by 10 cells" in label and "squares" not in label
    # the goal (in the fog at the start) stands out: its ring against the fog
    # around it and its fill against the floor, >= 3:1 each
    v = _view(d)
    (gr, gc), sq = v["goals"][0], v["s"]
    x0, y0 = (2 * gc + 1) * sq - v["cam"][0], (2 * gr + 1) * sq - v["cam"][1]
    assert v["walls"][2 * gr + 1][2 * gc] == "?"                    # hidden beside it
    ring, fill, fog = (_pixels(d, x, y0 + sq // 2) for x in (x0, x0 + sq // 2, x0 - 2))
    assert fog[:3] == [0x50, 0x50, 0x50]
    assert _contrast(ring, fog) >= 3.0 and _contrast(fill, (255, 255, 255)) >= 3.0, (ring, fill)
    maze = build_maze("backtracker", 10, 10, seed=5, braid=0.0, placement="corners")
    _key(d, "i")
    said = base._text(d, "#live") or d.find_element(By.ID, "live").get_attribute("textContent")
    r, c = maze.start
    assert said.startswith(f"row {r}, column {c}")
    ways = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
    open_ = [k for k, (dr, dc) in ways.items() if (r + dr, c + dc) in set(maze.neighbors(maze.start))]
    assert "open: " + ", ".join(open_) in said
    nxt = maze.solution()[1]
    _walk_keys(d, [maze.start, nxt])
    said = d.find_element(By.ID, "live").get_attribute("textContent")
    assert said.startswith(f"row {nxt[0]}, column {nxt[1]}") and "open:" in said


# ---------------------------------------------------------------- the URL is the world
def test_the_url_recreates_its_maze_in_a_server_started_otherwise(drivers, tmp_path):
    d = drivers("desktop")
    a, url_a = base._serve(tmp_path / "a", "wilson", "12x9", "--seed", "4", "--braid", "0.5",
                           "--placement", "centre", "--corridor", "2", "--wall", "1")
    b, url_b = base._serve(tmp_path / "b", "backtracker", "5x5", "--seed", "1")
    try:
        base._open(d, url_a, "maze 1 (full)")
        shown = d.current_url.split("?", 1)[1]
        for k in ("braid=0.5", "placement=centre", "corridor=2", "wall=1", "gen=wilson"):
            assert k in shown
        want = base._get_state(url_a)["picture"]["walls"]
        base._open(d, url_b + "?" + shown)
        WebDriverWait(d, 10).until(lambda dr: "wilson" in base._text(dr, "#seed"))
        base._idle(d)
        assert base._get_state(url_b)["picture"]["walls"] == want
    finally:
        for p in (a, b):
            p.terminate()
            p.wait(10)
