import sys

from measurelab.cli import main

sys.exit(main())
