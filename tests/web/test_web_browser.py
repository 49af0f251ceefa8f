"""The pages in a real browser: headless Chromium driven by Selenium.

``robomaze play backtracker 10x10 --web`` runs as a real subprocess; the
browser plays it to the goal by key presses in every visibility mode
(switching mode with the page's own selector), each record is checked and
scored with ``robomaze score``, then the robot buttons, "next maze" and the
replay page are exercised. Screenshots go to ``tmp_path``, and also to
``$ROBOMAZE_SCREENSHOT_DIR`` when set (how docs/img was made).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from robomaze.cli import main
from robomaze.cli._common import build_maze
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
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--window-size=1200,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``robomaze play backtracker 10x10 --web --port 0`` as a subprocess."""
    walks = tmp_path_factory.mktemp("walks")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "play", "backtracker", "10x10", "--seed", str(SEED),
         "--web", "--port", "0", "--record-dir", str(walks)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    url = None
    for line in proc.stdout:
        if line.startswith("serving "):
            url = line.split()[1]
            break
    if url is None:
        proc.kill()
        pytest.fail("play --web did not print its URL: " + proc.stderr.read())
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


def _idle(driver):
    WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-pending") == "0")


def _text(driver, css: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, css).text


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


def test_play_to_the_goal_in_every_mode_by_key_presses(browser, server, tmp_path):
    from PIL import Image

    url, walks = server
    maze = build_maze("backtracker", 10, 10, seed=SEED, braid=0.0, placement="corners")
    route = maze.solution()
    browser.get(url)
    _idle(browser)
    assert _text(browser, "#walk") == "maze 1 (full)"
    for n, mode in enumerate(MODES, 1):
        if mode != "full":
            Select(browser.find_element(By.ID, "mode")).select_by_value(mode)
        WebDriverWait(browser, 10).until(
            lambda d: _text(d, "#walk") == f"maze 1 ({mode})")
        _idle(browser)
        assert _text(browser, "#moves") == "moves 0"
        if mode == "explorer":
            _shot(browser, tmp_path, "play-explorer-start.png")
        # the full-mode walk makes a one-cell detour, so its score has an error
        walk = _detour(maze, route) if mode == "full" else route
        extra = len(walk) - len(route)
        keys = _keys_for(walk, letters=(mode == "trail"))
        canvas = browser.find_element(By.ID, "maze")
        half = len(keys) // 2
        canvas.send_keys(*keys[:half])
        _idle(browser)
        if mode in ("explorer", "theseus"):
            shot = _shot(browser, tmp_path, f"play-{mode}.png")
            img = np.asarray(Image.open(shot).convert("RGB")).reshape(-1, 3)
            # the fog (#505050) hides part of the maze half way through
            assert (img == (0x50, 0x50, 0x50)).all(axis=1).sum() > 1000
        canvas.send_keys(*keys[half:])
        _idle(browser)
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "finished"))
        assert _text(browser, "#moves") == f"moves {len(keys)}"
        assert _text(browser, "#extra") == str(extra)
        name = _text(browser, "#recname")
        assert name == f"walk-{n:03d}.jsonl"
        rec = read_record(walks / name)
        assert rec.reached_goal and rec.walker["settings"]["mode"] == mode
        assert rec.positions.tolist() == [list(c) for c in walk]
        assert score(rec).summary["extra_moves"] == extra
        assert main(["score", str(walks / name)]) == 0
        shot = _shot(browser, tmp_path, "play-finish.png" if mode == "full"
                     else f"play-{mode}-goal.png")
        with Image.open(shot) as im:
            assert im.format == "PNG" and im.size[0] >= 600
    # robomaze score as a real command on the last record
    proc = subprocess.run([sys.executable, "-m", "robomaze", "score",
                           str(walks / f"walk-{len(MODES):03d}.jsonl")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0 and "reached the goal" in proc.stdout
    assert f"optimal {len(route) - 1}, extra 0" in proc.stdout


def test_robot_buttons_and_next_maze(browser, server):
    url, walks = server
    browser.get(url)
    _idle(browser)
    browser.find_element(By.ID, "next").click()
    WebDriverWait(browser, 10).until(lambda d: _text(d, "#walk").startswith("maze 2 "))
    _idle(browser)
    for label in ("turn right", "forward", "turn left"):
        browser.find_element(By.XPATH, f"//div[@id='pad']/button[text()='{label}']").click()
    _idle(browser)
    # a turn or a forward step is one move each; a bump would be counted apart
    moves = int(_text(browser, "#moves").split()[1])
    bumps = int(_text(browser, "#bumps").split()[1])
    assert moves + bumps == 3
    before = set(walks.iterdir())
    browser.find_element(By.ID, "next").click()  # the unfinished walk is saved
    _idle(browser)
    (new,) = set(walks.iterdir()) - before
    rec = read_record(new)
    assert [s.move for s in rec.steps] == ["R", "F", "L"] and not rec.reached_goal
    maze2 = build_maze("backtracker", 10, 10, seed=SEED + 1, braid=0.0, placement="corners")
    assert rec.maze == maze2  # "next maze" is the generator's next seed


def test_replay_page_animates_and_toggles_the_solution(browser, server, tmp_path):
    url, walks = server
    browser.get(url + "replay?record=0")
    body = browser.find_element(By.TAG_NAME, "body")
    WebDriverWait(browser, 10).until(lambda d: body.get_attribute("data-frame") == "0")
    rec = read_record(walks / "walk-001.jsonl")
    n = len(rec.steps)
    assert _text(browser, "#frame") == f"step 0 / {n}"
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "back").click()
    assert body.get_attribute("data-frame") == "1"
    assert body.get_attribute("data-route") == "hidden"
    browser.find_element(By.ID, "solution").click()
    assert body.get_attribute("data-route") == "shown"
    assert _text(browser, "#solution") == "hide solution"
    Select(browser.find_element(By.ID, "speed")).select_by_value("16")
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 20).until(lambda d: body.get_attribute("data-frame") == str(n))
    assert _text(browser, "#play") == "play"  # stopped by itself at the end
    shot = _shot(browser, tmp_path, "replay.png")
    from PIL import Image

    img = np.asarray(Image.open(shot).convert("RGB")).reshape(-1, 3)
    # the solution (magenta) and moves in the direction colours are drawn
    for colour in ((0xFF, 0x00, 0xFF), (0x1F, 0x4F, 0xFF), (0xE0, 0x20, 0x1B)):
        assert (np.abs(img.astype(int) - colour).sum(axis=1) < 30).sum() > 20, colour
    browser.find_element(By.ID, "solution").click()
    assert body.get_attribute("data-route") == "hidden"
