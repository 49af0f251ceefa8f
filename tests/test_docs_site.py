"""The documentation site: it builds with warnings as errors (docs/build.sh), every
gallery example runs, every public module has an API page and every command a CLI
reference section, and the changelog has this round's section."""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = ("generate", "widen", "plan", "simulate", "benchmark", "localise", "micromouse", "play")


def _have(*mods):
    return all(importlib.util.find_spec(m) is not None for m in mods)


needs_sphinx = pytest.mark.skipif(
    not _have("sphinx", "pydata_sphinx_theme", "numpydoc", "sphinx_gallery", "myst_parser"),
    reason="the docs extra is not installed (pip install -e '.[docs]')")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if shutil.which("bash") is None:
        pytest.skip("docs/build.sh needs bash")
    out = tmp_path_factory.mktemp("site") / "html"
    res = subprocess.run(["bash", str(DOCS / "build.sh"), str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, (res.stdout + res.stderr)[-6000:]
    return out


@pytest.mark.docs
@needs_sphinx
def test_site_builds_with_warnings_as_errors_and_runs_every_example(site):
    assert (site / "index.html").is_file()
    for name in EXAMPLES:
        page = (site / "auto_examples" / f"plot_{name}.html").read_text(encoding="utf-8")
        # the example ran: sphinx-gallery embeds its figure(s) and printed output
        assert re.search(r'<img [^>]*src="[^"]*sphx_glr_plot_' + name, page), name
        assert "sphx-glr-script-out" in page, name


@pytest.mark.docs
@needs_sphinx
def test_api_pages_cover_every_public_module_and_the_cli_every_command(site):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from robomaze_docs import public_modules
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    mods = public_modules()
    assert "robomaze.bench.load" in mods and "robomaze.plan" in mods
    assert not [m for m in mods if any(p.startswith("_") for p in m.split("."))]
    for m in mods:
        assert (site / "api" / f"{m}.html").is_file(), m
    from robomaze.cli import COMMANDS

    cli = (site / "cli.html").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f'id="cli-{name}"' in cli or f"robomaze {name}" in cli, name
    results = (site / "results.html").read_text(encoding="utf-8")
    assert "wall_cells" in results and "pose_x" in results
    for howto in ("ci-gate", "cluster-sweeps", "ros2", "gymnasium"):
        assert (site / "howto" / f"{howto}.html").is_file()


def test_every_gallery_example_and_howto_exists():
    for name in EXAMPLES:
        assert (DOCS / "examples" / f"plot_{name}.py").is_file(), name
    for howto in ("ci-gate", "cluster-sweeps", "ros2", "gymnasium"):
        assert (DOCS / "howto" / f"{howto}.md").is_file(), howto


def test_changelog_has_an_unreleased_section():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    head = text.split("\n## ")[1]
    assert head.startswith("Unreleased") and "- **" in head


def test_docs_extra_is_in_the_test_extra():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "docs" in extras and any("sphinx" in d for d in extras["docs"])
    assert any("docs" in d for d in extras["test"] if d.startswith("robomaze["))
