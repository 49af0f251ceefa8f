"""docs/ci.md's walk-through, run exactly as written.

The page's Python and TOML blocks are written to the files their first
comment names, and its bash blocks up to the workflow are run in order in
a fresh folder, with nothing installed beyond robomaze (the plugin is a
file beside the sweep, as the page says). The baseline and the local
comparison must then agree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "ci.md"


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block up to the "## 3. The workflow" heading."""
    text = text[:text.index("## 3. The workflow")]
    return re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S)


def test_the_walk_through_passes_as_written(tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("the page's commands are bash")
    blocks = _blocks(PAGE.read_text())
    langs = [lang for lang, _ in blocks]
    assert langs.count("python") == 1 and langs.count("toml") == 1 and "bash" in langs
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    # `robomaze` as the page types it: this checkout's command
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "robomaze").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m robomaze "$@"\n')
    (shim / "robomaze").chmod(0o755)
    env["PATH"] = f"{shim}{os.pathsep}{env['PATH']}"
    work = tmp_path / "project"
    work.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    for lang, body in blocks:
        if lang in ("python", "toml"):
            first = body.splitlines()[0]
            assert first.startswith("# "), f"a {lang} block must name its file: {first!r}"
            dest = work / first[2:].strip()
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(body)
        elif lang == "bash":
            res = subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=work, env=env,
                                 capture_output=True, text=True, timeout=1800)
            assert res.returncode == 0, f"step failed:\n{body}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    rows = (work / "bench" / "baseline" / "results.jsonl").read_text().splitlines()
    assert len(rows) == 2 * 2 * 3 * 2 * 3            # seeds x generators x corridors x footprints x planners
    assert any('"method": "my_planner"' in r or '"my_planner"' in r for r in rows)
