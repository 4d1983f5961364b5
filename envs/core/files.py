"""Reading and writing files: text read as UTF-8 with one-line errors that name the file
(``read_text``), and atomic writes, so a reader (or a killed writer) never sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write", "read_text"]


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path``; a file that cannot be read or is not UTF-8 text raises a
    one-line ``DataError`` naming the file (and the offending byte)."""
    from .data import DataError

    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(f"{path}: cannot read file ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text (byte {e.object[e.start]:#04x} at offset "
                        f"{e.start}); save the file as UTF-8") from None


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write ``data`` to a temporary file next to ``path``, then rename it over ``path``.

    Creates the parent folder if needed; text is written as UTF-8. Returns the path.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
