"""McMahon go tournaments: pairing, levels, standings and the state file of ``clubratings
mcmahon`` (docs/mcmahon.md). A package of its own beside the core: it imports ``ratings`` for
the RFG grade scale and nothing that does I/O."""

from .pairing import *  # noqa: F403
from .pairing import __all__  # noqa: F401
