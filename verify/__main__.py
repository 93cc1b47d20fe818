import sys

from verify.cli.main import main

sys.exit(main())
