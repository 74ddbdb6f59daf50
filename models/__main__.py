"""Entry point for ``python -m models``; see models/cli.py."""
import sys

from models.cli import main

sys.exit(main())
