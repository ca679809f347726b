"""``python -m tests.mutation``: see cli.py."""
from .cli import main

raise SystemExit(main())
