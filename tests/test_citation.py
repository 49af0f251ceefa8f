"""CITATION.cff: valid Citation File Format fields, the package's own version."""

import pathlib
import tomllib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_citation_file_names_the_packages_version_and_license():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "license", "type"):
        assert cff.get(key), key
    assert str(cff["version"]) == project["version"]
    assert cff["license"] == project["license"]
    assert all("name" in a or "family-names" in a for a in cff["authors"])


def test_sweep_versions_name_every_library_a_result_depends_on():
    from robomaze.bench.versions import LIBRARIES, versions

    v = versions()
    for lib in ("numpy", "scipy", "numba", "shapely", "ompl"):
        assert lib in LIBRARIES and lib in v
    import numpy, scipy, numba, shapely

    assert (v["numpy"], v["scipy"], v["numba"], v["shapely"]) == (
        numpy.__version__, scipy.__version__, numba.__version__, shapely.__version__)
    assert v["platform"] and v["python"]
