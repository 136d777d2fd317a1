"""The tantrix circuit's tests: its regulation's worked examples, its workbooks, its documents."""
