"""The read side: followers of the global log (the live streams' fan-out and the
projection runner that keeps the game list and player records) and the queries on
those read models."""
