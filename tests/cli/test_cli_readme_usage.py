"""Every command of the README's Usage block runs as written (play excepted).

The commands run one after the other in one empty folder, through bash, with
the ``robomaze`` of this Python first on PATH: what a user who ran
``pip install .`` types. Each must exit 0 and write the files it names.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
# options whose value is a file the command writes
OUT_OPTIONS = {"-o", "--output", "--image", "--heatmap", "--json", "--render", "--gif"}


def usage_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Usage", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    block = block.replace("\\\n", " ")
    commands = []
    for line in block.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # drop a trailing comment (none of the commands quote a '#')
        line = re.sub(r"\s+#.*$", "", line)
        commands.append(line)
    return commands


def outputs(command: str) -> list[str]:
    words = shlex.split(command)
    outs = [words[i + 1] for i, w in enumerate(words[:-1]) if w in OUT_OPTIONS]
    if words[1:3] in (["bench", "report"],):
        outs.append(f"{words[3]}/report.md")
    if words[1] == "bench" and "-o" in words:
        outs.append(f"{words[words.index('-o') + 1]}/results.jsonl")
    return outs


COMMANDS = usage_commands()


def test_usage_block_is_found():
    assert len(COMMANDS) >= 15
    assert all(c.startswith("robomaze ") for c in COMMANDS), COMMANDS


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("readme")


# One test, in order: later commands read what earlier ones wrote (maze.json,
# mm-results, ...), and pytest-xdist would spread parametrized cases over
# workers with different folders.
RUNNABLE = [c for c in COMMANDS if not c.startswith("robomaze play")]


def test_usage_commands_run_in_order(workdir):
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MPLBACKEND"] = "Agg"
    failures = []
    for command in RUNNABLE:
        proc = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, capture_output=True,
                              text=True, timeout=900, stdin=subprocess.DEVNULL)
        if proc.returncode != 0 or "Traceback" in proc.stderr:
            failures.append(f"{command}\n  exit {proc.returncode}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}")
            continue
        missing = [out for out in outputs(command) if not (workdir / out).exists()]
        if missing:
            failures.append(f"{command} did not write {missing}")
    assert not failures, "\n\n".join(failures)
