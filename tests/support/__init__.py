"""Helpers that test modules of more than one kind share: servers and processes to
test against, clients of the API, waits, receivers, streams, the browser's taps.

A test module imports from here, never from another test module: what one test file
needs of another belongs here, named for what it does.
"""
