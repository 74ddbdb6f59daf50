"""``python -m tb.mutate``: mutation testing of rtl/ (tb/mutate/README.md)."""
import sys

from tb.mutate.cli import main

sys.exit(main())
