"""``python -m cli``: the same as the ``clubratings`` command."""

import sys

from .app import main

sys.exit(main())
