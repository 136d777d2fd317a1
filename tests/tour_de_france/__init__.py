"""The tour_de_france circuit's tests: its regulation's worked examples, its workbooks, its documents."""
