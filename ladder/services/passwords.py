"""The password policy: long enough, not the user name, not common or breached.

Common and breached passwords are judged by zxcvbn (Dropbox's estimator, maintained in Python as
`zxcvbn`): it ships frequency lists built from leaked-password corpora (the 30,000 most common of
Xato's ten million breached passwords, among others) and also sees through keyboard walks, repeats,
dates and l33t spellings of those. The user name is passed in as a word it must not lean on.
Everything is local: no password leaves the process.
"""

from __future__ import annotations

MIN_LENGTH = 8
MAX_LENGTH = 256
MIN_SCORE = 3  # zxcvbn's "safely unguessable": about 10^8 guesses, far beyond a throttled log-in
ZXCVBN_MAX = 72  # zxcvbn refuses longer input; a longer password is judged by its first 72 characters


def password_problem(password: str, *, username: str) -> str | None:
    """Why `password` is refused for `username`, as a sentence to show; None when it is fine."""
    if len(password) < MIN_LENGTH:
        return f"the password is too short: use at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"the password is too long: at most {MAX_LENGTH} characters"
    name = username.strip().lower()
    if len(name) >= 3 and name in password.lower():
        return "the password contains your user name"
    from zxcvbn import zxcvbn  # its word lists take a moment to load: only when someone signs up

    verdict = zxcvbn(password[:ZXCVBN_MAX], user_inputs=[name] if name else [])
    if verdict["score"] >= MIN_SCORE:
        return None
    feedback = verdict["feedback"]
    why = (feedback.get("warning") or "").rstrip(".")
    hint = " ".join(feedback.get("suggestions") or []) or "Use a few uncommon words together."
    return f"the password is too easy to guess ({why.lower() or 'common words or patterns'}). {hint}"
