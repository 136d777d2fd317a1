"""Digests of what a circuit's scoring reads, for the keys of what is made from it (render/cache.py):
a table's values exactly (`frame_digest`)."""

from __future__ import annotations

import hashlib
import json
import pickle

import pandas as pd


def frame_digest(frame: pd.DataFrame) -> str:
    """The SHA-256 of a table's values, exactly, column by column in its order (its index aside):
    numbers and dates by their bytes and dtype, any other column by `_objects`. About 0.05 CPU-s for
    a season's 100,000 points at 100x, where making them as an annex's rows costs ten times that."""
    hasher = hashlib.sha256(f"{len(frame)}\0{len(frame.columns)}".encode())
    for name in frame.columns:
        values = frame[name].to_numpy()
        if values.dtype.kind in "biufcmM":  # not an array of objects (their pointers)
            data, kind = values.tobytes(), values.dtype.str
        else:
            data, kind = _objects(values.tolist())
        hasher.update(f"\0{name}\0{kind}\0{len(data)}\0".encode())
        hasher.update(data)
    return hasher.hexdigest()


def _objects(values: list[object]) -> tuple[bytes, str]:
    """A column of objects as bytes that no other column of as many values gives: texts joined by
    NULs when none holds one (a workbook's text never does: XML cannot hold it; JSON's escaping cost
    four times as much), else JSON, else pickled (a date)."""
    try:
        joined = "\0".join(values)  # type: ignore[arg-type]  # a TypeError when one is not a text
        if joined.count("\0") == max(len(values) - 1, 0):
            return joined.encode("utf-8", "surrogatepass"), "texts"
    except TypeError:
        pass
    try:
        return json.dumps(values, ensure_ascii=False).encode("utf-8", "surrogatepass"), "json"
    except (TypeError, ValueError):
        return pickle.dumps(values, protocol=5), "pickle"
