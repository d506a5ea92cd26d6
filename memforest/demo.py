"""``make demo``: start the embedded database, migrate it, and show what is there."""

from __future__ import annotations

import sys

from memforest.cli import main

if __name__ == "__main__":
    sys.exit(main(["db", "info"]))
