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
    (``not_text``, ``empty``, ``too_long`` {length, most}, ``control`` {character})."""

    def __init__(self, text: str, code: str, **fields):
        super().__init__(text)
        self.code, self.fields = code, fields


def check_nickname(nickname: str) -> str:
    """The nickname exactly as typed, or ``ValueError`` (:class:`NicknameError`) saying what is wrong with it."""
    if not isinstance(nickname, str):
        raise NicknameError("A nickname must be text.", "not_text")
    if not nickname.strip():
        raise NicknameError("Type a nickname, or choose to stay anonymous.", "empty")
    if len(nickname) > MAX_NICKNAME:
        raise NicknameError(f"That nickname is {len(nickname)} characters long; at most {MAX_NICKNAME}.", "too_long",
                            length=len(nickname), most=MAX_NICKNAME)
    # Format characters are refused (a right-to-left override would turn the projector's text around),
    # except the zero-width joiner that joins emoji such as 👩‍💻.
    control = [c for c in nickname if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")
               and c != "\u200d"]
    if control:
        found = f"U+{ord(control[0]):04X}"
        raise NicknameError(f"A nickname cannot hold control or invisible characters (found {found}).", "control",
                            character=found)
    return nickname


def anonymous_nickname() -> str:
    return f"Student {secrets.choice(ALPHABET)}{secrets.choice(ALPHABET)}{secrets.randbelow(100):02d}"
