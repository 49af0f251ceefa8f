"""The README's "Extending" example runs as a doctest."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_extending_example_runs():
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Extending\n(.*?)(?=^## )", text, flags=re.S | re.M).group(1)
    assert ">>>" in section
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {}, "README Extending", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5
