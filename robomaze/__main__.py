"""``python -m robomaze`` and the ``robomaze`` command (its console script).

numpy's BLAS thread pools are sized here, before anything imports numpy
(:mod:`robomaze._threads`): ``import robomaze`` imports no numpy.
"""

from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``robomaze`` command line (:func:`robomaze.cli.main`) in one-thread pools."""
    from ._threads import one_thread_pools

    one_thread_pools()
    from .cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
