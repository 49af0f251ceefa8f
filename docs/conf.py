"""Sphinx configuration of the robomaze documentation site (``docs/build.sh``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import robomaze  # noqa: E402

project = "robomaze"
author = "the robomaze authors"
copyright = "the robomaze authors, MIT licence"
release = robomaze.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "robomaze_docs",          # API pages per public module and the CLI reference
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "examples/README.txt", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.md5",
                    "auto_examples/*.json", "auto_examples/*.codeobj.json"]
templates_path: list[str] = []

# autodoc + numpydoc: signatures from the code, the docstrings' own sections
autodoc_default_options = {"members": False, "show-inheritance": False}
autodoc_typehints = "none"         # numpydoc's Parameters already say the types
autodoc_inherit_docstrings = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# the docstrings cite other projects' names; no network at build time, so no
# intersphinx inventories are fetched (cross-references stay plain text)
intersphinx_mapping: dict = {}
nitpicky = False
default_role = "literal"   # `name` in a docstring reads as code, as in the Markdown pages

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "abort_on_example_error": True,
    "show_memory": False,
    "line_numbers": False,
    "plot_gallery": os.environ.get("ROBOMAZE_DOCS_GALLERY", "True"),
}

html_theme = "pydata_sphinx_theme"
html_title = f"robomaze {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 7,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
html_copy_source = False
