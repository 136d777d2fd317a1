"""What the PDF fork server imports before it forks a worker (render/pdf.py `_pool`): WeasyPrint,
its libraries opened by their Linux file names (render/libraries.py), and the renderer. The server's
temporary folder is the build's own (`_pool` starts it there)."""

from reportgen.render import pdf  # noqa: F401  (the workers' tasks are its functions)
from reportgen.render.libraries import import_weasyprint

import_weasyprint()
