"""Plain data to files: HTML (Jinja), PDF (WeasyPrint), XLSX (XlsxWriter), CSV and JSON."""
