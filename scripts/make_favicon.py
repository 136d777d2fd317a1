"""templates/site/favicon.ico from templates/site/favicon.svg, drawn by Chromium at 16, 32 and 48 px.

The site's pages link the SVG icon; a browser that has not one to read (a bulletin's page, which
links none, or a browser that draws no SVG icon) asks the server for /favicon.ico, which a build
writes at the root of outputs/ (site/publish.py `publish_icon`). Its frames are stored as bitmaps
(no compression: the same bytes whatever zlib the machine has). Run it again after changing the SVG;
tests/test_site_browser.py checks that the two draw the same pixels.

    .venv/bin/python scripts/make_favicon.py
"""

from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path

from PIL import Image

SITE = Path(__file__).resolve().parent.parent / "templates" / "site"
SIZES = (16, 32, 48)


def drawn(page, svg: bytes, size: int) -> Image.Image:  # type: ignore[no-untyped-def]
    """The SVG as Chromium draws it at `size` px square, on a transparent background (RGBA)."""
    source = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(f'<body style="margin:0"><img src="{source}" width="{size}" height="{size}" '
                     'style="display:block" alt=""></body>')
    page.wait_for_function("document.images[0].complete")
    return Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA")


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (SITE / "favicon.svg").read_bytes()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = chromium.new_page()
        frames = [drawn(page, svg, size) for size in SIZES]
        chromium.close()
    frames[-1].save(SITE / "favicon.ico", format="ICO", bitmap_format="bmp",
                    sizes=[frame.size for frame in frames], append_images=frames[:-1])


if __name__ == "__main__":
    main()
