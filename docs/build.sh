#!/usr/bin/env bash
# Build the documentation site with warnings as errors (the CI step).
#   bash docs/build.sh [OUTDIR]          default OUTDIR: docs/_build/html
# Needs the `docs` extra: pip install -e '.[docs]'
# ROBOMAZE_DOCS_GALLERY=False skips running the gallery's examples (faster;
# CI runs them).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/_build/html}"
export MPLBACKEND=Agg
# -W: a warning fails the build; --keep-going: report all of them first; -E:
# fresh environment (the generated API and CLI pages are rewritten anyway)
python -m sphinx -b html -W --keep-going -E -q -j 1 \
    -d "${out%/}/.doctrees" docs "$out"
echo "docs: built $out/index.html"
