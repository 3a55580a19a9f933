"""The database schema: numbered SQL files, applied in order, each exactly once.

They ship inside the package (as package data) so that an installed `tablelog` finds
them wherever it runs; `service.storage.migrate` applies them.
"""
