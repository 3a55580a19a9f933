"""The tablelog service: HTTP API, event store, projection runner and CLI."""
