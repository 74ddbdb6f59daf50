"""Sparse byte-addressed DRAM image for the 32-bit VTA address space.

Vectors touch a few kilobytes scattered over 4 GiB, so memory is held as 4 KiB numpy
pages created on first write; unwritten bytes read as zero (spec section 6).
"""
from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

PAGE_BITS = 12
PAGE = 1 << PAGE_BITS
ADDR_LIMIT = 1 << 32


class DramError(ValueError):
    """An access outside the 32-bit address space."""


class Dram:
    """Byte-addressed memory with zero default; reads and writes take any length."""

    def __init__(self) -> None:
        self._pages: dict[int, np.ndarray] = {}

    def _check(self, addr: int, size: int, what: str) -> None:
        if addr < 0 or size < 0 or addr + size > ADDR_LIMIT:
            raise DramError(f"{what} [{addr:#x}, +{size}) is outside the 4 GiB address space")

    def _chunks(self, addr: int, size: int) -> Iterator[tuple[int, int, int, int]]:
        """Yield (page number, offset in page, offset in buffer, length) pieces."""
        done = 0
        while done < size:
            page, off = divmod(addr + done, PAGE)
            n = min(PAGE - off, size - done)
            yield page, off, done, n
            done += n

    def write(self, addr: int, data: bytes | bytearray | np.ndarray, what: str = "write") -> None:
        """Store bytes at addr."""
        buf = np.frombuffer(bytes(data), dtype=np.uint8) if not isinstance(data, np.ndarray) \
            else np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        self._check(addr, buf.size, what)
        for page, off, pos, n in self._chunks(addr, buf.size):
            mem = self._pages.get(page)
            if mem is None:
                mem = self._pages[page] = np.zeros(PAGE, dtype=np.uint8)
            mem[off:off + n] = buf[pos:pos + n]

    def read(self, addr: int, size: int, what: str = "read") -> np.ndarray:
        """Return a fresh uint8 array of size bytes from addr."""
        self._check(addr, size, what)
        out = np.zeros(size, dtype=np.uint8)
        for page, off, pos, n in self._chunks(addr, size):
            mem = self._pages.get(page)
            if mem is not None:
                out[pos:pos + n] = mem[off:off + n]
        return out

    def read_bytes(self, addr: int, size: int) -> bytes:
        return self.read(addr, size).tobytes()

    def copy(self) -> "Dram":
        other = Dram()
        other._pages = {k: v.copy() for k, v in self._pages.items()}
        return other

    def pages(self) -> Iterable[tuple[int, np.ndarray]]:
        """(base address, 4 KiB array) of every page ever written, in address order."""
        for page in sorted(self._pages):
            yield page * PAGE, self._pages[page]

    @classmethod
    def from_images(cls, images: Iterable[tuple[int, bytes]]) -> "Dram":
        dram = cls()
        for addr, data in images:
            dram.write(addr, data)
        return dram
