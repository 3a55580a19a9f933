"""Read models (score sheets, replay frames, player records) folded from the events."""
