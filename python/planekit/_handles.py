"""Owning the library's opaque handles from Python."""
from __future__ import annotations

import ctypes
from typing import Callable

from . import _native


class Handle:
    """One library handle, freed with `free` when the last Python reference to it goes."""

    __slots__ = ("pointer", "_free")

    def __init__(self, pointer: ctypes.c_void_p, free: Callable[[ctypes.c_void_p], None]):
        self.pointer = pointer
        self._free = free

    def __del__(self) -> None:
        if self.pointer:
            self._free(self.pointer)
            self.pointer = None


def create(call: Callable[[ctypes.c_void_p], int], free: Callable[[ctypes.c_void_p], None]) -> Handle:
    """Runs `call(out)` (a planekit_* function whose last argument receives a new handle) and owns
    the handle, raising the library's error when the call fails."""
    out = ctypes.c_void_p()
    _native.check(call(ctypes.byref(out)))
    return Handle(out, free)
