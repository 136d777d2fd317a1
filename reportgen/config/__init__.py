"""League settings (this package): defaults, overridden by an optional `reportgen.toml` in the inputs folder.

    [league]
    name = "Ligue Grand Sud"

    [circuits.<circuit>]   # a circuit's settings, by its name (`reportgen circuits`)
    min_counted_results = 1

    [mail]
    host = "smtp.example.org"
    port = 587
    security = "starttls"
    sender = "Ligue Grand Sud <secretariat@example.org>"
    user = "secretariat@example.org"
    timeout = 20        # seconds each exchange with the server may take
    run_timeout = 600   # seconds the whole `mail --send` may take

    [site]                 # where `reportgen publish` sends the site (outputs/), over SFTP
    host = "ssh.example.org"
    port = 22
    user = "ligue"
    folder = "www"         # on the server, from the login folder unless it starts with /
    key = "~/.ssh/id_ed25519"            # optional
    known_hosts = "~/.ssh/known_hosts"   # optional (this one by default)
    timeout = 20           # seconds each exchange with the server may take

    [calendar]
    remind_after_days = 7   # `reportgen remind`: days after an announced tournament before a reminder

    [inbox]             # the mailbox `reportgen inbox` reads the clubs' workbooks from (IMAP)
    host = "imap.example.org"
    port = 993
    security = "ssl"    # or "starttls", "none"
    user = "secretariat@example.org"
    folder = "INBOX"    # where the clubs' messages arrive
    done = "Traités"    # where handled messages go (created if missing)

The file is validated like a workbook cell: a syntax error, a table or key reportgen does not know,
a value of the wrong type or out of its range is a `Problem` located in `reportgen.toml` (the table
as the "sheet", the key as the "cell") with its fix, in French. `load` reports every problem it
finds and never raises; a circuit with any wrong setting keeps all its defaults, so scoring never
sees a wrong value (and the problems block every circuit anyway, and the site: pipeline/building.py).

What each setting accepts comes from its dataclass: the type from the field's annotation, the
bounds from `setting(...)` (its metadata). A settings class may also define `conflicts()`, for
settings that are valid one by one but not together.

The package: `tables.py` (each table's dataclass and `setting`), `reader.py` (`load`: the file read
and checked, each problem located), `values.py` (a value checked against a field's annotation and
bounds, and the fix that says what to write); where a key or a syntax error is in the text:
`reportgen/toml_text.py`, which saisons.toml's reader shares.
"""

from reportgen.config.reader import load, load_site
from reportgen.config.tables import (
    IMAP_PASSWORD_VARIABLE,
    PASSWORD_VARIABLE,
    SETTINGS_FILE,
    SFTP_PASSWORD_VARIABLE,
    TABLES,
    CalendarSettings,
    Check,
    Inbox,
    League,
    Mail,
    Security,
    Site,
    mail_address,
    missing_for_sending,
    password_from_environment,
    setting,
)

__all__ = ["IMAP_PASSWORD_VARIABLE", "PASSWORD_VARIABLE", "SETTINGS_FILE", "SFTP_PASSWORD_VARIABLE", "TABLES",
           "CalendarSettings", "Check", "Inbox", "League", "Mail", "Security", "Site", "load", "load_site",
           "mail_address", "missing_for_sending", "password_from_environment", "setting"]
