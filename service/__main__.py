"""`python -m service` is the `tablelog` command."""

from service.cli import main

main()
