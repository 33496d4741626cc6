"""Join codes, teacher keys, student ids and nicknames: what is random, what is hashed, what is refused."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

# One case, no look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B.
ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6
MAX_NICKNAME = 40


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(typed: str) -> str:
    """A typed code as stored: spaces and dashes dropped, upper case (a phone capitalises at will)."""
    return "".join(c for c in str(typed) if c not in " -").upper()


def new_teacher_key() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_student_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits: a student id is what answers for a student


def digest(secret: str) -> str:
    """What the database keeps of a secret: its SHA-256 (a key with 256 random bits needs no slow hash)."""
    return hashlib.sha256(str(secret).encode()).hexdigest()


def same_secret(secret: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(str(secret)), stored_digest)


class NicknameError(ValueError):
    """What is wrong with a nickname: English text, plus ``code`` and ``fields`` for a UI to translate
    (``not_text``, ``empty``, ``too_long`` {length, most}, ``control`` {character}, ``invisible`` {character})."""

    def __init__(self, text: str, code: str, **fields):
        super().__init__(text)
        self.code, self.fields = code, fields


# Letters and symbols that draw nothing: Hangul fillers, the braille blank, the Mongolian vowel separator,
# the combining grapheme joiner. (Format characters, Cf, are refused by category.)
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f")


def _variation_selector(character: str) -> bool:
    point = ord(character)
    return 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF


def check_nickname(nickname: str) -> str:
    """The nickname exactly as typed, or ``ValueError`` (:class:`NicknameError`) saying what is wrong with it."""
    if not isinstance(nickname, str):
        raise NicknameError("A nickname must be text.", "not_text")
    if not nickname.strip():
        raise NicknameError("Type a nickname, or choose to stay anonymous.", "empty")
    if len(nickname) > MAX_NICKNAME:
        raise NicknameError(f"That nickname is {len(nickname)} characters long; at most {MAX_NICKNAME}.", "too_long",
                            length=len(nickname), most=MAX_NICKNAME)
    control = [c for c in nickname if unicodedata.category(c) in ("Cc", "Cs", "Co", "Zl", "Zp")]
    if control:
        found = f"U+{ord(control[0]):04X}"
        raise NicknameError(f"A nickname cannot hold control or invisible characters (found {found}).", "control",
                            character=found)
    # Format characters (zero-width joiners and spaces, bidi controls, tags) and blank letters let two names
    # look the same, or turn the projector's text around.
    invisible = [c for c in nickname if unicodedata.category(c) == "Cf" or c in BLANK_LETTERS]
    if invisible:
        found = f"U+{ord(invisible[0]):04X}"
        raise NicknameError(f"A nickname cannot hold invisible characters such as zero-width joiners or direction "
                            f"marks (found {found}).", "invisible", character=found)
    if not nickname_key(nickname):
        raise NicknameError("Type a nickname, or choose to stay anonymous.", "empty")
    return nickname


def nickname_key(nickname: str) -> str:
    """What two nicknames are compared by: NFKC, case-folded, variation selectors and every space dropped
    ("Ann", "ANN ", "Ａｎｎ", "A\u200anN" with a hair space and "Ann" with an emoji variation selector are one
    name). Dropping inner spaces too refuses "Ann Lee" after "AnnLee": a refusal costs a student a second
    try, a look-alike on the roster costs the teacher knowing who is who."""
    text = unicodedata.normalize("NFKC", str(nickname))
    text = "".join(c for c in text if not _variation_selector(c))
    text = unicodedata.normalize("NFKC", text.casefold())
    return "".join(text.split())


def anonymous_tag() -> str:
    """The drawn part of an anonymous nickname ("7K42" in "Student 7K42")."""
    return f"{secrets.choice(ALPHABET)}{secrets.choice(ALPHABET)}{secrets.randbelow(100):02d}"


def anonymous_nickname() -> str:
    return f"Student {anonymous_tag()}"
