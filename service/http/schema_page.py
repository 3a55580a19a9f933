"""The API's own page at `/schema`: Swagger UI, from the `swagger-ui-bundle` package,
served by tablelog itself so that the page works with no internet (Litestar's default
page loads its scripts and fonts from a CDN). The document itself is
`/schema/openapi.json`."""

from __future__ import annotations

from litestar.openapi.plugins import OpenAPIRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/schema/assets"


def render_plugins() -> list[OpenAPIRenderPlugin]:
    return [
        SwaggerRenderPlugin(
            js_url=f"{ASSETS}/swagger-ui-bundle.js",
            css_url=f"{ASSETS}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS}/swagger-ui-standalone-preset.js",
            path="/",
        )
    ]


def asset_routes() -> Router:
    return create_static_files_router(
        path=ASSETS,
        directories=[swagger_ui_path],
        name="schema-assets",
        include_in_schema=False,
    )
