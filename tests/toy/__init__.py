"""A fourth game that exists only in the tests: Nim, to show that a game plugs in
through the registry alone (`tests/toy/test_a_game_plugs_in.py`)."""
