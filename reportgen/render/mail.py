"""E-mail drafts (.eml) with the standard library's `email`: French subjects encoded as RFC 2047
requires, UTF-8 bodies, a Date and a Message-ID taken from the message itself (same message, same
bytes)."""

from __future__ import annotations

import datetime as dt
import hashlib
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime

from reportgen.model import Message


def to_eml(message: Message, sender: str = "") -> bytes:
    draft = EmailMessage(policy=default)
    if sender:
        draft["From"] = sender
    draft["To"] = ", ".join(message.to)
    draft["Subject"] = message.subject
    draft["Date"] = format_datetime(dt.datetime.combine(message.date, dt.time(9), dt.timezone.utc))
    digest = hashlib.sha256(f"{message.path}\n{message.subject}\n{message.text}".encode()).hexdigest()[:24]
    draft["Message-ID"] = f"<{digest}@reportgen.invalid>"
    draft.set_content(message.text, cte="quoted-printable")  # 7-bit clean: any mail program opens it
    return draft.as_bytes()
