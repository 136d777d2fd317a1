"""`tour-de-france`: the francophone Diplomacy circuit (regulation 004_6b38a01f19fef100.txt),
read as INTERPRETATIONS.md says."""
