"""Credentials: held so that nothing the kit writes or prints can carry them.

A password reaches the kit in a target spec's ``sasl=`` part, in one of three forms:

* ``sasl=@FILE``: a properties file (``admin.username``, ``admin.password``,
  ``user.username``, ``user.password``), so nothing secret is on the command line;
* ``sasl=env:PREFIX``: the environment variables ``PREFIX_ADMIN_USERNAME``,
  ``PREFIX_ADMIN_PASSWORD``, ``PREFIX_USER_USERNAME`` and ``PREFIX_USER_PASSWORD``;
* ``sasl=ADMIN:PASSWORD,USER:PASSWORD`` inline, for throw-away brokers (``ps`` shows
  it to every local user while the kit runs).

Three layers keep the password out of every output. The spec is only ever shown through
:func:`redact_spec`, and free text through :func:`redact`. A password is held in a :class:`Secret`, whose ``repr`` and ``str``
are a mask, so ``attrs.asdict``, a traceback's locals or an f-string cannot leak it. And
every password read is registered, so :func:`scrub` masks it in any text the kit writes
(the CLI's errors, the report files, progress lines), whatever path it took to get there.
Passwords shorter than four characters are not scrubbed from free text (masking every
``ab`` would garble the output); the first two layers still hold for them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import attrs

__all__ = ["MASK", "CredentialsError", "Login", "Secret", "logins_from", "redact", "redact_spec", "scrub"]

MASK: Final = "***"
_SCRUB_MIN = 4
_known: set[str] = set()
_FILE_KEYS = ("admin.username", "admin.password", "user.username", "user.password")


class CredentialsError(ValueError):
    """Logins that cannot be read; the message names the file, line or variable, never a value."""


class Secret:
    """A password: compared and hashed by value, shown as a mask; :meth:`reveal` where it is sent."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value
        if len(value) >= _SCRUB_MIN:
            _known.add(value)

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    def __str__(self) -> str:
        return MASK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))


def _secret(value: str | Secret) -> Secret:
    return value if isinstance(value, Secret) else Secret(value)


@attrs.frozen
class Login:
    """A SASL/PLAIN login; its password never appears in a repr or an ``attrs.asdict``."""

    name: str
    password: Secret = attrs.field(converter=_secret)


def scrub(text: str) -> str:
    """``text`` with every password the kit has read masked (the longest first, so one password
    inside another is masked whole)."""
    for value in sorted(_known, key=len, reverse=True):
        if value in text:
            text = text.replace(value, MASK)
    return text


_INLINE = re.compile(r"(sasl=)(?!@|env:)([^,:\s'\"]*):(?!PASSWORD\b)[^,\s'\"]*(,([^,:\s'\"]*):[^,\s'\"]*)?")


def redact_spec(spec: str) -> str:
    """A target spec as the kit shows it: the passwords of an inline ``sasl=`` masked (by the
    spec's structure, whatever characters they hold); ``@FILE`` and ``env:PREFIX`` kept."""
    head, sep, logins = spec.partition("sasl=")
    if sep and not logins.startswith(("@", "env:")):
        logins = ",".join(f"{name}:{MASK}" if colon else MASK  # a part without NAME: may be a password
                          for part in logins.split(",") for name, colon, _ in [part.partition(":")])
    return scrub(head + sep + logins)


def redact(text: str) -> str:
    """Free text (a message, a traceback, a file the kit writes) with every password read so far
    masked, and any inline ``sasl=NAME:PASSWORD`` in it (a spec the kit never parsed, quoted in
    an error) masked up to the next comma or space."""

    def mask(m: re.Match[str]) -> str:
        user = f",{m.group(4)}:{MASK}" if m.group(3) is not None else ""
        return f"{m.group(1)}{m.group(2)}:{MASK}{user}"

    return _INLINE.sub(mask, scrub(text))


def logins_from(value: str, environ: Mapping[str, str] | None = None) -> tuple[Login, Login]:
    """The (admin, user) logins of a spec's ``sasl=`` value (the text after ``sasl=``)."""
    if value.startswith("@"):
        return _from_file(Path(value[1:]))
    if value.startswith("env:"):
        return _from_environment(value[len("env:"):], os.environ if environ is None else environ)
    logins = value.split(",")
    if len(logins) != 2:
        raise CredentialsError("give the logins as sasl=@FILE, sasl=env:PREFIX or sasl=ADMIN:PASSWORD,USER:PASSWORD")
    pairs = []
    for which, login in zip(("admin", "user"), logins, strict=True):
        name, sep, password = login.partition(":")
        if not sep or not name or not password:
            raise CredentialsError(f"the {which} login is not NAME:PASSWORD (both parts non-empty)")
        pairs.append(Login(name, password))
    return pairs[0], pairs[1]


def _from_file(path: Path) -> tuple[Login, Login]:
    if not str(path):
        raise CredentialsError("sasl=@ names no file; give sasl=@FILE")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CredentialsError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise CredentialsError(f"{path}: cannot read the logins file ({exc.strerror or exc})") from None
    found: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep:
            raise CredentialsError(f"{path}:{number}: expected KEY=VALUE ({', '.join(_FILE_KEYS)})")
        if key not in _FILE_KEYS:
            raise CredentialsError(f"{path}:{number}: unknown key {key[:40]!r}; the keys are {', '.join(_FILE_KEYS)}")
        if key in found:
            raise CredentialsError(f"{path}:{number}: {key} given twice")
        found[key] = value.strip()
    return _pairs(found, str(path), {k: k for k in _FILE_KEYS})


def _from_environment(prefix: str, environ: Mapping[str, str]) -> tuple[Login, Login]:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prefix):
        raise CredentialsError(f"sasl=env:{prefix[:40]}: the prefix must be a variable name, e.g. sasl=env:KC_SASL")
    names = {key: f"{prefix}_{key.replace('.', '_').upper()}" for key in _FILE_KEYS}
    found = {key: environ[var] for key, var in names.items() if var in environ}
    return _pairs(found, "the environment", names)


def _pairs(found: Mapping[str, str], where: str, names: Mapping[str, str]) -> tuple[Login, Login]:
    missing = [names[k] for k in _FILE_KEYS if not found.get(k)]
    if missing:
        raise CredentialsError(f"{where}: {', '.join(missing)} missing or empty")
    admin = Login(found["admin.username"], found["admin.password"])
    user = Login(found["user.username"], found["user.password"])
    return admin, user
