"""`python -m bench`: the service's speed measured beside its limits and its peer.

Every figure is a ratio of two rates measured side by side in one run on one database
server (or a count), because absolute numbers on a shared machine say little. One
module per measurement: store appends, HTTP appends, folds, replay, projections; the
report module prints the table and writes the JSON.
"""
