"""`python -m tb.formal`: see tb/formal/cli.py."""
import sys

from tb.formal.cli import main

sys.exit(main())
