"""The OpenAPI document's schemas read strictly: a field the document does not list
is an error, as a typed client generated from it would find."""

from __future__ import annotations

import copy


def closed(schema: object) -> object:
    """The document with every object schema that lists its properties closed."""
    schema = copy.deepcopy(schema)
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema
