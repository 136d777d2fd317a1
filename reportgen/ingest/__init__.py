"""Reading the inputs: workbooks to located cells, cells to validated events."""
