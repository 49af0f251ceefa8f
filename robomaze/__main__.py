"""``python -m robomaze``: the same as the ``robomaze`` command."""

import sys

from .cli import main

sys.exit(main())
