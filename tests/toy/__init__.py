"""A fifth game that exists only in the tests: Nim, a distribution of its own
(`pyproject.toml`, the package `tablelog_toy` and its page module), to show that a
game plugs in with no file of the service changed: hosted by an app built with it
(`test_hosted.py`), and installed with pip for a restarted `tablelog serve`
(`test_installed.py`)."""
