"""The REST API: the Litestar app factory, its routes, the wire shapes of requests and
answers, errors as problem details, the OpenAPI document and the table's web page."""
