"""``python -m enumerate`` runs the studodds command line."""
import sys

from enumerate.cli import main

sys.exit(main())
