"""``python -m studodds`` runs the studodds command line."""
import sys

from studodds.cli import main

sys.exit(main())
