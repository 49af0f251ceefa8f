"""The pages in a real browser: headless Chromium driven by Selenium.

``robomaze play backtracker 10x10 --web`` runs as a real subprocess. A
1280x800 desktop plays every visibility mode to the goal by key presses and
a 390x844 touch phone by swipes; each record is checked and scored with
``robomaze score``. Then: layout (no horizontal scroll, buttons >= 44 px,
12 px cells or a follow camera on 60x40), the Escape trap, restart / undo /
next / pause keys, the URL round trip, two tabs, killing the server mid-walk,
and the replay page. Screenshots go to ``tmp_path``, and also to
``$ROBOMAZE_SCREENSHOT_DIR`` when set (how docs/img was made).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from robomaze.cli import main
from robomaze.cli._world import build_maze, load
from robomaze.traverse import MODES, read_record, score

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parents[2]
SEED = 5
KEY_NAMES = {(0, 1): "ARROW_RIGHT", (1, 0): "ARROW_DOWN", (0, -1): "ARROW_LEFT",
             (-1, 0): "ARROW_UP"}
# WASD moves too: one mode is played with letters instead of arrows
WASD = {(0, 1): "d", (1, 0): "s", (0, -1): "a", (-1, 0): "w"}
SWIPES = {(0, 1): (120, 0), (1, 0): (0, 120), (0, -1): (-120, 0), (-1, 0): (0, -120)}


def _missing() -> str | None:
    for exe in (CHROMIUM, CHROMEDRIVER):
        if not os.access(exe, os.X_OK):
            return f"{exe} is not installed (Debian packages chromium and chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install robomaze[web-test])"
    return None


if (_why := _missing()) is not None:
    pytest.skip(_why, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def _driver(tmp_path_factory, name: str, phone: bool = False):
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp(name)}"):
        opts.add_argument(flag)
    if phone:
        opts.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14) Mobile"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    if not phone:
        # the page's viewport is exactly 1280x800, whatever the window frame
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = _driver(tmp_path_factory, "desktop-profile")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    driver = _driver(tmp_path_factory, "phone-profile", phone=True)
    yield driver
    driver.quit()


def _serve(walks: Path, *args: str):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "play", *args, "--web", "--port", "0",
         "--record-dir", str(walks)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stdout:
        if line.startswith("serving "):
            return proc, line.split()[1]
    proc.kill()
    pytest.fail("play --web did not print its URL: " + proc.stderr.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``robomaze play backtracker 10x10 --seed 5 --web --port 0`` as a subprocess."""
    walks = tmp_path_factory.mktemp("walks")
    proc, url = _serve(walks, "backtracker", "10x10", "--seed", str(SEED))
    yield url, walks
    proc.terminate()
    proc.wait(10)


def _shot(driver, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    assert driver.save_screenshot(str(path))
    out_dir = os.environ.get("ROBOMAZE_SCREENSHOT_DIR")
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(out_dir) / name)
    return path


def _body(driver, key: str) -> str:
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-" + key)


def _idle(driver):
    WebDriverWait(driver, 20).until(lambda d: _body(d, "pending") == "0")


def _text(driver, css: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, css).text


def _count(driver, what: str) -> int:
    return int(_text(driver, "#" + what).split()[1])


def _open(driver, url: str, walk_label: str | None = None):
    driver.get(url)
    if walk_label is not None:
        WebDriverWait(driver, 20).until(lambda d: _text(d, "#walk") == walk_label)
    _idle(driver)


def _keys_for(route, letters=False):
    names = WASD if letters else {k: getattr(Keys, v) for k, v in KEY_NAMES.items()}
    return [names[(b[0] - a[0], b[1] - a[1])] for a, b in zip(route, route[1:])]


def _detour(maze, route):
    """The route with one step into a side passage and back at its first junction."""
    on = set(route)
    for i, cell in enumerate(route):
        side = [n for n in maze.neighbors(cell) if n not in on]
        if side:
            return route[:i + 1] + [side[0], cell] + route[i + 1:]
    raise AssertionError("the test maze has no junction on its route")


def _swipe(driver, dx: int, dy: int):
    x, y = driver.execute_script(
        "const r = document.getElementById('maze').getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];")
    for kind, pts in (("touchStart", [{"x": x, "y": y}]),
                      ("touchMove", [{"x": x + dx / 2, "y": y + dy / 2}]),
                      ("touchMove", [{"x": x + dx, "y": y + dy}]), ("touchEnd", [])):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})


def _layout(driver) -> dict:
    return driver.execute_script("""
        const vis = (el) => el.offsetParent !== null;
        const small = [];
        for (const el of document.querySelectorAll('button, select, input, #bar a')) {
          if (!vis(el)) continue;
          const r = el.getBoundingClientRect();
          if (r.width < 44 || r.height < 44) small.push([el.id || el.textContent, r.width, r.height]);
        }
        const c = document.getElementById('maze').getBoundingClientRect();
        return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
                small: small, canvasRight: c.right, cellpx: +document.body.dataset.cellpx,
                camera: document.body.dataset.camera};""")


def _check_layout(driver):
    lay = _layout(driver)
    assert lay["scroll"] <= lay["inner"], lay          # no horizontal scroll
    assert lay["small"] == [], lay                      # every control >= 44 px
    assert lay["canvasRight"] <= lay["inner"], lay
    return lay


def _get_state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as r:
        return json.loads(r.read())


def _play_mode(driver, url, walks, tmp_path, mode, n, maze, route, move, shot=None):
    """Play one mode to the goal with ``move(step)`` per step; check record and score."""
    _open(driver, url + "?mode=" + mode, f"maze 1 ({mode})")
    assert _count(driver, "moves") == 0
    walk = _detour(maze, route) if mode == "full" else route
    extra = len(walk) - len(route)
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(walk, walk[1:])]
    half = len(steps) // 2
    for st in steps[:half]:
        move(st)
    _idle(driver)
    if shot:
        _shot(driver, tmp_path, shot)
    if mode == "explorer":
        # what the server sends holds no square further than a visited cell's walls
        state = _get_state(url)
        assert state["picture"]["walls"] is None
        ok = np.zeros((state["picture"]["rows"], state["picture"]["cols"]), bool)
        for r, c in state["trail"]:
            ok[r - 1:r + 2, c - 1:c + 2] = True
        known = np.array([[ch != "?" for ch in row] for row in state["walls"]])
        assert known.any() and not (known & ~ok).any()
    for st in steps[half:]:
        move(st)
    _idle(driver)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "finished"))
    assert _count(driver, "moves") == len(steps)
    assert _text(driver, "#extra") == str(extra)
    name = _text(driver, "#recname")
    assert name == f"walk-{n:03d}.jsonl"
    rec = read_record(walks / name)
    assert rec.reached_goal and rec.walker["settings"]["mode"] == mode
    assert rec.positions.tolist() == [list(c) for c in walk]
    assert score(rec).summary["extra_moves"] == extra
    assert main(["score", str(walks / name)]) == 0
    return rec


def test_desktop_plays_every_mode_by_keys(browser, server, tmp_path):
    url, walks = server
    maze = build_maze("backtracker", 10, 10, seed=SEED, braid=0.0, placement="corners")
    route = maze.solution()
    canvas = lambda: browser.find_element(By.ID, "maze")  # noqa: E731
    for n, mode in enumerate(MODES, 1):
        letters = mode == "trail"
        names = WASD if letters else {k: getattr(Keys, v) for k, v in KEY_NAMES.items()}
        _play_mode(browser, url, walks, tmp_path, mode, n, maze, route,
                   lambda st: canvas().send_keys(names[st]))
        if mode == "full":
            shot = _shot(browser, tmp_path, "web-play-finish.png")
            from PIL import Image

            with Image.open(shot) as im:
                assert im.size == (1280, 800)
        _check_layout(browser)
    # robomaze score as a real command on the last record
    proc = subprocess.run([sys.executable, "-m", "robomaze", "score",
                           str(walks / f"walk-{len(MODES):03d}.jsonl")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0 and "reached the goal" in proc.stdout
    assert f"optimal {len(route) - 1}, extra 0" in proc.stdout


def test_phone_plays_every_mode_by_swipes(phone, server, tmp_path):
    url, walks = server
    maze = build_maze("backtracker", 10, 10, seed=SEED, braid=0.0, placement="corners")
    route = maze.solution()
    first = len(list(walks.glob("walk-*.jsonl"))) + 1
    for n, mode in enumerate(MODES, first):
        if mode == "explorer":
            _open(phone, url + "?mode=explorer", "maze 1 (explorer)")
            _check_layout(phone)
            assert _layout(phone)["cellpx"] >= 12
        _play_mode(phone, url, walks, tmp_path, mode, n, maze, route,
                   lambda st: _swipe(phone, *SWIPES[st]),
                   shot="web-play-phone.png" if mode == "explorer" else None)
        lay = _check_layout(phone)   # the finish panel fits 390 px: no sideways scroll
        assert lay["inner"] == 390
        right = phone.execute_script(
            "return document.getElementById('finish').getBoundingClientRect().right")
        assert right <= 390
    phone.execute_script("document.getElementById('finish').scrollIntoView()")
    _shot(phone, tmp_path, "web-play-phone-finish.png")


def test_phone_pinch_and_buttons_zoom(phone, server):
    url, _ = server
    _open(phone, url)
    px = lambda: int(_body(phone, "squarepx"))  # noqa: E731
    before, moves = px(), _count(phone, "moves") + _count(phone, "bumps")
    x, y = phone.execute_script(
        "const r = document.getElementById('maze').getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];")
    for kind, d in (("touchStart", 20), ("touchMove", 40), ("touchMove", 60)):
        phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x - d, "y": y, "id": 1}, {"x": x + d, "y": y, "id": 2}]})
    phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    after = px()
    assert after > before                  # fingers apart: bigger squares
    assert _count(phone, "moves") + _count(phone, "bumps") == moves   # a pinch is no swipe
    _check_layout(phone)                   # the view follows; the page does not widen
    phone.find_element(By.ID, "zoomout").click()
    assert px() < after


def test_a_60x40_maze_has_12px_cells_and_the_view_follows(browser, server, tmp_path):
    url, _ = server
    _open(browser, url + "?gen=wilson&size=40x60&seed=1&mode=full", "maze 2 (full)")
    lay = _check_layout(browser)
    assert lay["cellpx"] >= 12 and lay["camera"] == "follow"
    size = browser.execute_script(
        "const c = document.getElementById('maze'); return [c.width, c.height];")
    assert size[0] <= 1280 and size[1] <= 800
    maze = build_maze("wilson", 40, 60, seed=1, braid=0.0, placement="corners")
    keys = _keys_for(maze.solution()[:25])
    browser.find_element(By.ID, "maze").send_keys(*keys)
    _idle(browser)
    assert _count(browser, "moves") == len(keys)
    _shot(browser, tmp_path, "web-play-desktop.png")


def test_robot_controls_show_only_their_buttons(browser, server):
    url, walks = server
    _open(browser, url + "?gen=backtracker&size=10x10&seed=5&mode=full&controls=robot")
    WebDriverWait(browser, 10).until(lambda d: _body(d, "controls") == "robot")
    _idle(browser)
    shown = [b.get_attribute("data-act") for b in
             browser.find_elements(By.CSS_SELECTOR, "#pad button") if b.is_displayed()]
    assert shown == ["L", "F", "R"]          # no absolute arrows with robot controls
    before = set(walks.glob("walk-*.jsonl"))
    for act in ("R", "F", "L"):
        browser.find_element(By.CSS_SELECTOR, f"#pad button[data-act='{act}']").click()
    _idle(browser)
    assert _count(browser, "moves") + _count(browser, "bumps") == 3
    (new,) = set(walks.glob("walk-*.jsonl")) - before
    assert [s.move for s in read_record(new).steps] == ["R", "F", "L"]
    _open(browser, url + "?controls=arrows")   # the next tests walk with arrows
    WebDriverWait(browser, 10).until(lambda d: _body(d, "controls") == "arrows")
    _idle(browser)


def test_a_short_window_does_not_scroll_the_title_away(browser, server):
    url, _ = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1280, "height": 450, "deviceScaleFactor": 1, "mobile": False})
    try:
        _open(browser, url)
        assert browser.execute_script("return window.scrollY") == 0
        assert browser.execute_script(
            "return document.getElementById('stats').getBoundingClientRect().top") >= 0
        assert browser.switch_to.active_element.get_attribute("id") == "maze"
    finally:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})


def test_escape_closes_the_menu_and_the_next_key_is_a_move(browser, server):
    url, _ = server
    _open(browser, url + "?gen=backtracker&size=10x10&seed=5&mode=full")
    walk0, mode0 = _text(browser, "#walk"), "full"
    browser.find_element(By.ID, "optbtn").click()
    sel = browser.find_element(By.ID, "mode")
    assert sel.is_displayed()
    sel.click()                           # opens the list (focus on it)
    assert browser.switch_to.active_element == sel
    # Escape closes the list (its popup may swallow that Escape); the next key is a move
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    before = _count(browser, "moves") + _count(browser, "bumps")
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    _idle(browser)
    assert _count(browser, "moves") + _count(browser, "bumps") == before + 1
    assert _text(browser, "#walk") == walk0 and sel.get_attribute("value") == mode0
    assert browser.switch_to.active_element.get_attribute("id") == "maze"
    # with the focus in the form, Escape closes it and gives the keys back to the maze
    browser.find_element(By.ID, "radius").click()
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert not sel.is_displayed()
    assert browser.switch_to.active_element.get_attribute("id") == "maze"
    ActionChains(browser).send_keys(Keys.ARROW_UP).perform()
    _idle(browser)
    assert _count(browser, "moves") + _count(browser, "bumps") == before + 2
    before += 1
    # browser shortcuts pass through: Ctrl+D and Ctrl+S are not moves
    for letter in ("d", "s"):
        ActionChains(browser).key_down(Keys.CONTROL).send_keys(letter).key_up(Keys.CONTROL) \
            .perform()
    _idle(browser)
    assert _count(browser, "moves") + _count(browser, "bumps") == before + 1


def test_undo_restart_pause_and_next_keys(browser, server):
    url, walks = server
    _open(browser, url + "?gen=backtracker&size=10x10&seed=5&mode=full")
    maze = build_maze("backtracker", 10, 10, seed=5, braid=0.0, placement="corners")
    route = maze.solution()
    canvas = browser.find_element(By.ID, "maze")
    if _count(browser, "moves"):
        canvas.send_keys("r")
        _idle(browser)
    assert _count(browser, "moves") == 0
    label = _text(browser, "#walk")
    before = set(walks.glob("walk-*.jsonl"))
    canvas.send_keys(*_keys_for(route[:3]))
    canvas.send_keys("u")                  # undo: a move back, counted
    _idle(browser)
    assert _count(browser, "moves") == 3
    canvas.send_keys("p")                  # pause: keys do nothing, the clock stops
    assert _body(browser, "paused") == "1"
    canvas.send_keys(Keys.ARROW_RIGHT)
    _idle(browser)
    assert _count(browser, "moves") == 3
    canvas.send_keys("p")
    assert _body(browser, "paused") == "0"
    canvas.send_keys("r")                  # restart: same maze, the walk is kept
    WebDriverWait(browser, 10).until(lambda d: _count(d, "moves") == 0)
    _idle(browser)
    assert _text(browser, "#walk") == label
    (saved,) = set(walks.glob("walk-*.jsonl")) - before
    rec = read_record(saved)
    assert not rec.reached_goal and rec.n_moves == 3
    assert rec.positions.tolist() == [list(c) for c in route[:3]] + [list(route[1])]
    canvas.send_keys("n")                  # next maze: the next seed, in the URL too
    WebDriverWait(browser, 10).until(lambda d: "seed=6" in d.current_url)
    _idle(browser)
    assert "backtracker 10x10 seed 6" in _text(browser, "#seed")


def test_url_round_trip_names_one_maze(browser, server, tmp_path):
    url, walks = server
    query = "?gen=wilson&size=6x7&seed=5&braid=0&placement=corners&corridor=0&mode=torch"
    _open(browser, url + query)
    WebDriverWait(browser, 10).until(lambda d: "wilson 6x7 seed 5" in _text(d, "#seed"))
    _idle(browser)
    assert browser.execute_script("return location.search") == query
    maze = build_maze("wilson", 6, 7, seed=5, braid=0.0, placement="corners")
    browser.find_element(By.ID, "maze").send_keys(*_keys_for(maze.solution()))
    _idle(browser)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "finished"))
    rec = read_record(walks / _text(browser, "#recname"))
    # one seed names one maze: the CLI's `generate` makes the same one
    assert main(["generate", "wilson", "6x7", "--seed", "5", "-o", str(tmp_path / "m.json")]) == 0
    assert rec.maze == maze == load(tmp_path / "m.json")
    assert rec.walker["settings"]["mode"] == "torch"
    assert "New best" in _text(browser, "#best")
    browser.find_element(By.ID, "maze").send_keys(Keys.ENTER)  # Enter: next maze
    WebDriverWait(browser, 10).until(lambda d: "seed=6" in d.current_url)
    _open(browser, url + query)           # the shared URL brings the maze back
    WebDriverWait(browser, 10).until(lambda d: "wilson 6x7 seed 5" in _text(d, "#seed"))
    _idle(browser)
    assert _get_state(url)["spec"] == {"gen": "wilson", "size": [6, 7], "seed": 5, "braid": 0.0,
                                       "placement": "corners", "corridor": None, "wall": None}


def test_two_tabs_the_older_one_is_told(browser, server):
    url, _ = server
    _open(browser, url + "?gen=backtracker&size=10x10&seed=5&mode=full")
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    _open(browser, url)
    second = browser.current_window_handle
    moves = _get_state(url)["moves"] + _get_state(url)["bumps"]
    browser.switch_to.window(first)
    browser.find_element(By.ID, "maze").send_keys(Keys.ARROW_DOWN)
    WebDriverWait(browser, 10).until(lambda d: _body(d, "elsewhere") == "1")
    assert "another tab" in _text(browser, "#banner")
    assert _get_state(url)["moves"] + _get_state(url)["bumps"] == moves
    browser.find_element(By.ID, "playhere").click()
    _idle(browser)
    browser.find_element(By.ID, "maze").send_keys(Keys.ARROW_DOWN)
    _idle(browser)
    assert _body(browser, "elsewhere") == "0"
    assert _get_state(url)["moves"] + _get_state(url)["bumps"] == moves + 1
    browser.switch_to.window(second)
    browser.close()
    browser.switch_to.window(first)


def test_killing_the_server_mid_walk_keeps_the_walk(browser, tmp_path):
    walks = tmp_path / "walks"
    proc, url = _serve(walks, "backtracker", "10x10", "--seed", "7", "--mode", "trail")
    try:
        _open(browser, url, "maze 1 (trail)")
        maze = build_maze("backtracker", 10, 10, seed=7, braid=0.0, placement="corners")
        walk = maze.solution()[:8]
        canvas = browser.find_element(By.ID, "maze")
        for key in _keys_for(walk):
            canvas.send_keys(key)
        _idle(browser)
        proc.kill()                       # SIGKILL: no chance to save anything more
        proc.wait(10)
        canvas.send_keys(Keys.ARROW_LEFT)
        WebDriverWait(browser, 20).until(lambda d: _body(d, "gone") == "1")
        assert "server has stopped" in _text(browser, "#banner")
        t = _text(browser, "#timer")
        time.sleep(0.5)
        assert _text(browser, "#timer") == t   # the clock stopped with the server
    finally:
        if proc.poll() is None:
            proc.kill()
    (path,) = walks.glob("walk-*.jsonl")
    rec = read_record(path)
    assert not rec.reached_goal
    assert rec.positions.tolist() == [list(c) for c in walk]    # every key sent, in order
    # the times are the page's: increasing, and the duration is the last move's
    assert np.all(np.diff(rec.times) >= 0) and rec.duration == rec.times[-1]


def test_replay_page_slider_names_and_solution(browser, server, tmp_path):
    url, walks = server
    browser.get(url + "replay?record=0")
    WebDriverWait(browser, 10).until(lambda d: _body(d, "frame") == "0")
    rec = read_record(walks / "walk-001.jsonl")
    n = len(rec.steps)
    assert _text(browser, "#frame") == f"step 0 / {n} (moves 0, bumps 0)"
    options = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#record option")]
    assert options[0].startswith("full, backtracker 10x10 seed 5 20")   # mode, maze, date
    assert any("unfinished" in o for o in options)
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "back").click()
    assert _body(browser, "frame") == "1"
    slider = browser.find_element(By.ID, "slider")
    browser.execute_script("arguments[0].value = arguments[1];"
                           "arguments[0].dispatchEvent(new Event('input'));", slider, n - 2)
    assert _body(browser, "frame") == str(n - 2)
    browser.find_element(By.ID, "solution").click()
    assert _body(browser, "route") == "shown"
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 20).until(lambda d: _body(d, "frame") == str(n))
    assert "extra 2, goal reached" in _text(browser, "#info")  # the detour: 2 moves
    shot = _shot(browser, tmp_path, "web-replay.png")
    from PIL import Image

    img = np.asarray(Image.open(shot).convert("RGB")).reshape(-1, 3).astype(int)
    # the solution (magenta) and Okabe-Ito right (blue) and down (vermilion) are drawn
    for colour in ((0xFF, 0x00, 0xFF), (0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)):
        assert (np.abs(img - colour).sum(axis=1) < 30).sum() > 20, colour
    # an unfinished walk shows no "extra"
    i = next(k for k, o in enumerate(options) if "unfinished" in o)
    browser.get(url + f"replay?record={i}")
    WebDriverWait(browser, 10).until(lambda d: _body(d, "frame") == "0")
    assert "unfinished" in _text(browser, "#info") and "extra" not in _text(browser, "#info")


_SPY_HINTS = """
window.__hints = [];
const plain = window.fetch;
window.fetch = async (...args) => {
  const r = await plain(...args);
  if (String(args[0]).includes('/api/hint')) { window.__hints.push(await r.clone().json()); }
  return r;
};"""

_HINT_PIXELS = """
const c = document.getElementById('maze'), d = c.getContext('2d')
  .getImageData(0, 0, c.width, c.height).data;
let n = 0;
// the hint's wine (#882255), apart from every direction colour for colour-blind eyes
for (let i = 0; i < d.length; i += 4) { if (Math.abs(d[i] - 136) < 6 && Math.abs(d[i + 1] - 34) < 6 && Math.abs(d[i + 2] - 85) < 6) n++; }
return n;"""


def test_hint_key_in_explorer_mode_records_and_counts(browser, server, tmp_path):
    url, walks = server
    maze = build_maze("backtracker", 10, 10, seed=SEED, braid=0.0, placement="corners")
    route = maze.solution()
    _open(browser, url + f"?gen=backtracker&size=10x10&seed={SEED}&mode=explorer")
    canvas = browser.find_element(By.ID, "maze")
    if _count(browser, "moves") or _count(browser, "hints"):
        canvas.send_keys("r")
        WebDriverWait(browser, 10).until(lambda d: _count(d, "moves") == 0)
    _idle(browser)
    assert _count(browser, "hints") == 0 and _body(browser, "hint") in (None, "0")
    assert _HINT_PIXELS and browser.execute_script(_HINT_PIXELS) == 0
    browser.execute_script(_SPY_HINTS)
    before = set(walks.glob("walk-*.jsonl"))
    canvas.send_keys(*_keys_for(route[:4]), "h")   # the hint is asked after the 3 moves
    _idle(browser)
    WebDriverWait(browser, 10).until(lambda d: _body(d, "hint") == "5")
    assert _count(browser, "hints") == 1 and _count(browser, "moves") == 3
    assert browser.execute_script(_HINT_PIXELS) > 0          # drawn over the maze
    assert _text(browser, "#live").startswith("hint: ")
    (resp,) = browser.execute_script("return window.__hints")
    assert resp["hint"] == [[2 * r + 1, 2 * c + 1] for r, c in route[4:9]]
    assert resp["position"] == [2 * route[3][0] + 1, 2 * route[3][1] + 1]
    # the answer reveals nothing new (a delta without squares): no square beyond
    # the visited cells' walls, and the hinted cells themselves stay hidden until walked
    assert resp["delta"] and resp["squares"] == [] and resp["trail_add"] == []
    resp = {**resp, **_get_state(url)}
    ok = np.zeros((21, 21), bool)
    for r, c in resp["trail"]:
        ok[r - 1:r + 2, c - 1:c + 2] = True
    known = np.array([[ch != "?" for ch in row] for row in resp["walls"]])
    assert known.any() and not (known & ~ok).any()
    assert all(resp["walls"][r][c] == "?" for r, c in resp["hint"])
    assert "picture" not in resp or resp["picture"]["walls"] is None
    WebDriverWait(browser, 10).until(lambda d: _body(d, "hint") == "0")   # it goes away
    assert browser.execute_script(_HINT_PIXELS) == 0
    half = len(route) // 2
    canvas.send_keys(*_keys_for(route[3:half + 1]))
    _idle(browser)
    browser.find_element(By.ID, "hint").click()                       # the button too
    _idle(browser)
    WebDriverWait(browser, 10).until(lambda d: _count(d, "hints") == 2)
    canvas.send_keys(*_keys_for(route[half:]))
    _idle(browser)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "finished"))
    assert _text(browser, "#hintcount") == "2"
    assert _text(browser, "#extra") == "0"
    (path,) = set(walks.glob("walk-*.jsonl")) - before
    rec = read_record(path)
    assert rec.reached_goal and rec.n_hints == 2 and rec.n_moves == len(route) - 1
    assert [(e.event, e.row, e.col, e.index) for e in rec.events] == \
        [("hint", *route[3], 3), ("hint", *route[half], half)]
    assert rec.events[0].t <= rec.steps[3].t and rec.steps[2].t <= rec.events[0].t
    proc = subprocess.run([sys.executable, "-m", "robomaze", "score", str(path), "--json", "-"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["hints"] == 2


def test_hint_button_on_the_phone(phone, server, tmp_path):
    url, walks = server
    maze = build_maze("backtracker", 10, 10, seed=SEED, braid=0.0, placement="corners")
    route = maze.solution()
    _open(phone, url + f"?gen=backtracker&size=10x10&seed={SEED}&mode=full")
    if _count(phone, "moves") or _count(phone, "hints"):
        phone.find_element(By.ID, "again").click()
        WebDriverWait(phone, 10).until(lambda d: _count(d, "moves") == 0)
    _idle(phone)
    _check_layout(phone)                                      # the Hint button is >= 44 px
    rect = phone.find_element(By.ID, "hint").rect
    assert rect["width"] >= 44 and rect["height"] >= 44
    for st in [(b[0] - a[0], b[1] - a[1]) for a, b in zip(route, route[1:4])]:
        _swipe(phone, *SWIPES[st])
    _idle(phone)
    phone.find_element(By.ID, "hint").click()
    _idle(phone)
    WebDriverWait(phone, 10).until(lambda d: _body(d, "hint") == "5")
    assert _count(phone, "hints") == 1 and _count(phone, "moves") == 3
    assert phone.execute_script(_HINT_PIXELS) > 0
    _shot(phone, tmp_path, "web-play-hint-phone.png")
    state = _get_state(url)
    assert state["hints"] == 1 and state["moves"] == 3
