"""Every kind of problem reportgen reports, each declared once: its code (what `reportgen check
--format json` publishes, listed in docs/formats.md), what it means, and its French message and fix
templates. A call site states a problem by its kind and the facts it knows
(`MISSING_SHEET(workbook.ref(), sheet="Résultats", fix=...)`), never by a hand-typed code or text.

As frictionless declares its error classes, a kind whose text depends on the cell (a value that
cannot be read, a setting that does not exist...) takes its message and fix whole (`{message}`,
`{fix}`): the code still says what kind of problem it is.

Each kind has its level (model.Level): blocking, the default, or a warning, which never stops a
build (pipeline/loading.py sets the warnings apart) nor refuses the workbook it is found in (a
circuit's parse refuses for a blocking one: `blocking`). A kind is a warning only when what it
concerns is outside every ranking: today a club's e-mail address, a player's publication choice on
the site, and a key missing from a server's table ([site], [inbox], [mail]), which the command that
connects to that server refuses; or when the ranking reads a cell as typed and only the club can
complete it: a player's empty Prénom (`EMPTY_FIRST_NAME`: he is ranked under his surname alone until
the club types his first name; refusing the workbook would hold back every other player's results), a
Grand Sud results sheet without a Club column (`MISSING_CLUB_COLUMN`: its players ranked without clubs).
`upstream` is held: a circuit waiting for one it depends on, which holds it back but is no problem
of its own to correct.

This module is at the model layer: it imports nothing of reportgen's but `model`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from string import Formatter

from reportgen.model import Level, Problem, SourceRef


@dataclass(frozen=True)
class Kind:
    """One kind of problem: its code, what it means (for docs/formats.md), its message and fix
    templates (`str.format`), the fields a call site may leave out, and its level."""

    code: str
    meaning: str
    message: str
    fix: str
    defaults: Mapping[str, object] = field(default_factory=dict)
    level: Level = Level.BLOCKING

    def __call__(self, where: SourceRef, /, **fields: object) -> Problem:
        if unknown := fields.keys() - set(self.fields()):
            raise TypeError(f"{self.code} has no field {', '.join(sorted(unknown))}")
        values = {**self.defaults, **fields}
        return Problem(where, self.message.format(**values), self.fix.format(**values), code=self.code,
                       level=self.level)

    def fields(self) -> list[str]:
        """The names the templates use, in order, each once."""
        names = [name for template in (self.message, self.fix)
                 for _, name, _, _ in Formatter().parse(template) if name]
        return list(dict.fromkeys(names))


KINDS: dict[str, Kind] = {}  # code -> kind, in the order declared (the order of docs/formats.md)


def _kind(code: str, meaning: str, message: str = "{message}", fix: str = "{fix}", *, level: Level = Level.BLOCKING,
          **defaults: object) -> Kind:
    assert code not in KINDS, f"the problem code {code} is declared twice"
    KINDS[code] = kind = Kind(code, meaning, message, fix, defaults, level)
    return kind


class Problems(list[Problem]):
    """The problems found while reading one thing (a file, a sheet, a settings table), in order.

    A list, so that every reader that takes `problems: list[Problem]` takes it too; `add` states a
    problem by its kind, at `where` or, left out, at the collector's scope."""

    def __init__(self, scope: SourceRef | None = None, problems: Iterable[Problem] = ()) -> None:
        super().__init__(problems)
        self.scope = scope

    def add(self, kind: Kind, where: SourceRef | None = None, /, **fields: object) -> Problem:
        where = where or self.scope
        assert where is not None, "a problem is located: give `where` or a scope"
        problem = kind(where, **fields)
        self.append(problem)
        return problem


def blocking(problems: Iterable[Problem]) -> bool:
    """Whether one of `problems` blocks: what a reader refuses a workbook, a row or a cell for. A
    warning read with them (an empty Prénom) is said, and what it concerns is read all the same."""
    return any(problem.blocking for problem in problems)


# -- files and folders ---------------------------------------------------------------------------

MISSING_CLUBS = _kind("missing-clubs", "workbooks name clubs but inputs/clubs.xlsx is absent",
                      "l’annuaire des clubs est absent (les classeurs {workbooks} nomment des clubs)",
                      "ajoutez inputs/clubs.xlsx (feuille Clubs : Code, Nom, Département, Email)")
UNREADABLE = _kind("unreadable", "a file cannot be read at all (damaged, protected, another format, "
                   "a settings file that is not TOML or not UTF-8); the message says which")
NOT_XLSX = _kind("not-xlsx", "reportgen would write into a workbook that is not an .xlsx",
                 "reportgen n’écrit que des classeurs .xlsx, pas des {suffix}",
                 "ouvrez-le dans Excel ou LibreOffice, enregistrez-le au format .xlsx, retirez l’ancien "
                 "fichier de inputs/, puis relancez la commande")
WOULD_OVERWRITE = _kind("would-overwrite", "writing into a workbook would lose a value typed there")

# -- settings (inputs/reportgen.toml, inputs/saisons.toml) -------------------------------------

UNKNOWN_SETTING = _kind("unknown-setting", "a settings table or key that does not exist or cannot be set there")
MISSING_SETTING = _kind("missing-setting", "a key the [site] or [inbox] table must write, or one `reportgen mail "
                        "--send` needs in the [mail] table, is absent",
                        "le réglage « {key} » manque dans la table [{table}]{why}",
                        "ajoutez la ligne {key} = {example} sous [{table}]", table="mail", why="",
                        level=Level.WARNING)  # a server's key: the command that connects refuses, not the build
OUT_OF_RANGE = _kind("out-of-range", "a setting outside its bounds or its possible values, or settings that "
                     "contradict each other")
CONFLICTING_SETTINGS = _kind("conflicting-settings", "a circuit's settings that cannot hold together",
                             "ces réglages ne vont pas ensemble ({error})",
                             "revoyez-les un à un, ou retirez-les pour garder les valeurs par défaut")

# -- a workbook's sheets, columns and cells --------------------------------------------------------

MISSING_SHEET = _kind("missing-sheet", "a sheet the workbook needs is absent",
                      "la feuille « {sheet} » est introuvable{present}", present="")
MISSING_COLUMN = _kind("missing-column", "a sheet lacks a column it needs (or its header row)")
MISSING_FIELD = _kind("missing-field", "a field of the Tournoi sheet is absent",
                      "le champ « {label} » est absent", "ajoutez une ligne « {label} » avec sa valeur")
MISSING_VALUE = _kind("missing-value", "a cell that must be filled is empty")
BAD_VALUE = _kind("bad-value", "a cell's value cannot be read as what it should be (a date, a place, a "
                  "name...), or does not fit the rest of its row")
BAD_ADDRESS = _kind("bad-address", "an Email cell of clubs.xlsx holds something that is not an e-mail address",
                   "{parts} {what} (attendu : une adresse comme contact@club.fr, ou plusieurs séparées par "
                   "« ; »)",
                   "corrigez l’adresse (une seule « @ », un domaine avec un point, sans espace ; deux adresses "
                   "séparées par « ; »), ou videz la case : le club ne reçoit aucun courriel tant qu’elle est "
                   "fausse", what="ne sont pas des adresses électroniques", level=Level.WARNING)
BAD_PUBLICATION = _kind("bad-publication", "a player's Publication in joueurs.xlsx is not oui, initiales or non",
                        "« {value} » n’est pas un choix de publication",
                        "écrivez oui (le nom sur le site), initiales (les initiales seulement) ou non (absent du "
                        "site public), ou laissez la case vide (oui)", level=Level.WARNING)
FORMULA = _kind("formula", "a formula saved without its value",
                "la cellule contient une formule dont la valeur n’a jamais été calculée",
                "ouvrez le fichier dans Excel ou LibreOffice et enregistrez-le, ou tapez la valeur elle-même")
CONTROL_CHARACTERS = _kind("control-characters", "a cell holds only invisible control characters",
                           "la case ne contient que des caractères invisibles (caractères de contrôle)",
                           "effacez-la et tapez la valeur, ou laissez-la vide")
EMPTY = _kind("empty", "a sheet has its headers but no rows", "{nothing} dans la feuille",
              "listez {rows} sous la ligne d’en-têtes", nothing="aucun résultat", rows="les joueurs")
FUTURE_DATE = _kind("future-date", "the tournament's date is after today",
                    "{typed}la date {event} ({day}) est dans le futur", "corrigez la date {event}",
                    typed="", event="du tournoi")
# `reopen`: the secretary's part of the fix, `reopen(season)`, which a club is told in its own words
# (delivery/inbox_filing.py).
SEASON_CLOSED = _kind("season-closed", "a tournament dated after the day its season was closed (inputs/saisons.toml, "
                      "`reportgen season close`): it would change the ranking published as final",
                      "la saison {season} est close depuis le {closed} : ce tournoi du {day} changerait son classement "
                      "final", "si sa date est fausse, corrigez-la ; sinon, pour qu’il compte, {reopen}")


def reopen(season: int | str) -> str:
    """How the secretary opens a season again, in `SEASON_CLOSED`'s fix (a kind's fields are
    formatted once: its command's year is given here)."""
    return (f"rouvrez la saison (« reportgen season open {season} », puis « make ») et clôturez-la de nouveau une "
            "fois tous ses tournois reçus")


LAYOUT = _kind("layout", "a sheet a command of reportgen wrote is no longer in its layout",
               "la feuille « {sheet} » n’est plus dans la disposition que « reportgen {command} » lui donne "
               "({layout})")

# -- the same thing twice --------------------------------------------------------------------------

DUPLICATE = _kind("duplicate", "something given twice (a club code, a spelling, a game, a forfeit, a "
                  "Masters workbook...)")
DUPLICATE_PLAYER = _kind("duplicate-player", "a player listed twice in one sheet",
                         "{player} est {listed} deux fois (déjà en {first}{spelled})", "supprimez le doublon{otherwise}",
                         listed="inscrit", otherwise="", spelled="")
SHARED_LICENCE = _kind("shared-licence", "two names with one licence in one sheet",
                       "{player} a la licence {licence}, déjà donnée à {other} en {first}",
                       "corrigez la licence de l’une des deux lignes, ou le nom si c’est le même joueur")
DUPLICATE_TOURNAMENT = _kind("duplicate-tournament", "two workbooks are the same tournament",
                             "ce classeur et « {other} » sont le même tournoi ({same}) : compté deux fois, il "
                             "fausserait le classement",
                             "retirez d’inputs/ l’un des deux classeurs (« {other} » ou « {label} »){then}")

# -- places ------------------------------------------------------------------------------------------

DUPLICATE_PLACE = _kind("duplicate-place", "a Grand Sud place given twice (no ties in the Grand Sud)",
                        "la place {place} est donnée deux fois{first} ; le règlement Grand Sud ne prévoit pas "
                        "d’ex aequo", "donnez à chaque joueur une place différente")
PLACE_RANGE = _kind("place-range", "a place beyond the number of players ranked",
                    "la place {place} dépasse le nombre de joueurs classés ({count})")
PLACE_SEQUENCE = _kind("place-sequence", "places that do not follow each other (ties share a number, the next "
                       "skips it)",
                       "la place {place} ne suit pas les précédentes : ici on attend la place {expected} (des ex "
                       "aequo partagent un numéro et le suivant le saute : 3, 3, 5)",
                       "corrigez la numérotation des places")

# -- who is who ------------------------------------------------------------------------------------

UNKNOWN_CLUB = _kind("unknown-club", "a club the directory clubs.xlsx does not know",
                     "le club « {club} » n’est pas dans l’annuaire clubs.xlsx")
UNKNOWN_PLAYER = _kind("unknown-player", "a name that is not in the closed list it must come from (a pool "
                       "tournament's or a Tantrix event's Inscrits, the Masters' participants...)",
                       "{player} n’est pas {among}")
AMBIGUOUS_PLAYER = _kind("ambiguous-player", "a name that could mean two entries of a closed list",
                         "{player} peut désigner {candidates} ({among})")
# A warning: the row is read as typed, and its player ranked; only the club knows his first name.
EMPTY_FIRST_NAME = _kind("empty-first-name", "a player's Prénom is empty (or the sheet has no Prénom column) beside "
                         "a Nom that holds his surname alone, and no licence tells him apart: two players of that name "
                         "so typed would be counted as one",
                         "le prénom {of_player} {missing} : deux joueurs {player} sans prénom{nor_licence} seraient "
                         "comptés comme un seul", "tapez son prénom {where_typed}{or_licence}",
                         missing="est vide", where_typed="dans cette case", nor_licence="", or_licence="",
                         level=Level.WARNING)

# A warning: the players are ranked all the same, without their clubs; a whole column missing is more
# likely forgotten than meant (each of its cells may be left empty), and only the club can fill it.
MISSING_CLUB_COLUMN = _kind("missing-club-column", "a Grand Sud results sheet has no Club column: its players are "
                            "ranked without their clubs",
                            "la feuille n’a pas de colonne « Club » : les joueurs de ce tournoi sont classés sans "
                            "leur club",
                            "ajoutez une colonne « Club » à la ligne d’en-têtes et tapez le club de chaque joueur "
                            "(son code ou son nom dans clubs.xlsx), une case vide pour un joueur sans club",
                            level=Level.WARNING)

# -- games, rounds and pools (Tantrix, pool tournaments, the Masters) -----------------------------

PAIRING = _kind("pairing", "two players who should not meet in that game, round or table")
BRACKET = _kind("bracket", "a knockout loser who plays a later round",
                "{loser} a perdu son match de la ronde {round} contre {winner} (tableau à élimination) mais joue "
                "la ronde {later}", "vérifiez les résultats de ce match, ou les joueurs de cette ronde")
WRONG_POOL = _kind("wrong-pool", "a game or player not in the pool the regulation gives")
MISSING_GAME = _kind("missing-game", "games of a pool that are not typed",
                     "il manque {games} à la poule {pool} du tour {round} (Blancs – Noirs) : {shown}")
MISPLACED_BARRAGE = _kind("barrage", "a play-off game where no play-off is called for")
BARRAGE_COLOUR = _kind("barrage-colour", "a play-off game with White and Black swapped",
                       "au barrage, les Blancs reviennent au dernier inscrit (Art. IX) : ici {expected}, pas {typed}",
                       "échangez les Blancs et les Noirs de cette partie")
ROUND_ORDER = _kind("round-order", "a round typed before the previous one is complete")
WRONG_ROUND = _kind("wrong-round", "a forfeit in a round the player does not play",
                    "{player} ne joue pas le tour {round}", "indiquez le tour que le joueur jouait lors de son forfait")

# -- the Masters' qualification ----------------------------------------------------------------------

NO_RANKING = _kind("no-ranking", "no Grand Sud ranking to qualify the Masters' players from")
TOO_FEW = _kind("too-few", "fewer Masters participants than the 16 it needs")
QUALIFICATION_TIE = _kind("qualification-tie", "a tie across the 16th place that only a play-off settles")
MISSING_DATE = _kind("missing-date", "the Masters' date is known neither from its workbook nor from --date",
                     "la date du Masters est inconnue", "indiquez-la avec --date jj/mm/aaaa")

# -- circuits that depend on others --------------------------------------------------------------

UPSTREAM = _kind("upstream", "a circuit this one depends on has problems: this one waits, with nothing of its "
                 "own to correct",
                 # one colon in its row of verification.html, « En attente : … mais le circuit … »: the sentence
                 # ended with a second one
                 "le circuit {circuits}, dont dépend {slug}, a des classeurs à corriger, et rien ne peut être "
                 "établi avant leur correction",
                 "corrigez d’abord les classeurs du circuit {joined} (leurs problèmes sont listés avec eux)",
                 level=Level.HELD)  # said, never counted as one more problem to correct

# -- the league's calendar (inputs/calendrier.xlsx) ------------------------------------------------

UNKNOWN_CIRCUIT = _kind("unknown-circuit", "a circuit the calendar names that reportgen does not know",
                        "le circuit « {circuit} » n’existe pas", "écrivez l’un de : {known}")
ANNOUNCED_TWICE = _kind("announced-twice", "a tournament the calendar announces twice (same circuit, date and "
                        "club, or same circuit, date and name)",
                        "ce tournoi est déjà annoncé en {first} (même circuit, même date, {same})",
                        "supprimez l’une des deux lignes, ou corrigez la date, le club ou le nom de l’une")
