"""The `Tournoi` fields every tournament workbook may carry (docs/formats.md): key -> the labels a
club may write for it. Each circuit's own fields come from the registry, which refuses one that
clashes with these (so it imports this light module, not the sheet's reader)."""

COMMON_FIELDS = {
    "circuit": ("Circuit",),
    "nom": ("Nom", "Nom du tournoi", "Tournoi"),
    "date": ("Date", "Date du tournoi"),
    "lieu": ("Lieu", "Ville"),
}
