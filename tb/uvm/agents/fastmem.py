"""The fast memory's files: a job's DRAM as pages, $readmemh images and read-back.

The fast mode's AXI memory (tb/rtl/vta_tb_mem.v) holds 2^LOG_PAGES physical pages of 64 KiB
and maps virtual pages onto them through a directory. :class:`MemoryImage` decides the map
for one job -- every page an init image, a STORE footprint or an expect image touches --
and writes the three files the memory loads in one step (directory, init data, allowed
write strobes), so the DRAM image goes into the simulation in one pass instead of beat by
beat through Python. After DONE, :meth:`MemoryImage.dump_ranges` names the physical word
ranges to write back ($writememh) for the bytes the testbench compares, and
:func:`parse_dump` reads them. Reads of unmapped pages return zeros, as the model's
untouched DRAM does; writes to them are stray writes (they lie outside every STORE).
Pure Python (no cocotb), so it is unit-tested on its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from models.dram import Dram

PAGE = 1 << 16
DIR_FILE, MEM_FILE, ALLOW_FILE, DUMP_FILE = ("vta_tb_dir.hex", "vta_tb_mem.hex", "vta_tb_allow.hex",
                                             "vta_tb_dump.hex")


class MemoryFull(ValueError):
    """The job touches more pages than the fast memory holds (a larger LOG_PAGES build is needed)."""


def _pages(ranges: Iterable[tuple[int, int]]) -> set[int]:
    """Virtual page numbers touched by (address, length) byte ranges."""
    out: set[int] = set()
    for addr, n in ranges:
        if n > 0:
            out.update(range(addr // PAGE, (addr + n - 1) // PAGE + 1))
    return out


@dataclass
class MemoryImage:
    """One job's DRAM as the fast memory holds it.

    ``dram`` is the job's initial image (the vector's init images), ``writable`` the byte
    ranges STOREs may write (the checker's footprints), ``compared`` the byte ranges read
    back after DONE (the expect images); ``bus_bytes`` the memory word size.
    """

    dram: Dram
    init: list[tuple[int, int]]
    writable: list[tuple[int, int]]
    compared: list[tuple[int, int]]
    bus_bytes: int
    log_pages: int

    def __post_init__(self) -> None:
        virtual = sorted(_pages(self.init) | _pages(self.writable) | _pages(self.compared))
        if len(virtual) > 1 << self.log_pages:
            raise MemoryFull(f"the job touches {len(virtual)} pages of 64 KiB; the fast memory "
                             f"holds {1 << self.log_pages} (LOG_PAGES={self.log_pages})")
        self.pages = {v: n for n, v in enumerate(virtual)}

    @property
    def words_per_page(self) -> int:
        return PAGE // self.bus_bytes

    def word(self, addr: int) -> int:
        """Physical word index of a mapped byte address."""
        return self.pages[addr // PAGE] * self.words_per_page + addr % PAGE // self.bus_bytes

    def write_files(self, directory: Path) -> None:
        """The three $readmemh files of this job, in the simulator's working directory."""
        nb, digits = self.bus_bytes, self.bus_bytes * 2
        lines = [f"@{v:x}\n{1 << self.log_pages | p:x}" for v, p in self.pages.items()]
        (directory / DIR_FILE).write_text("\n".join(lines) + "\n")
        data: list[str] = []
        for addr, n in _words(self.init, nb):
            pos = addr
            while pos < addr + n:  # one run per page: physical pages need not be contiguous
                end = min(addr + n, (pos // PAGE + 1) * PAGE)
                data.append(f"@{self.word(pos):x}")
                raw = self.dram.read_bytes(pos, end - pos)
                data += [raw[i:i + nb][::-1].hex().rjust(digits, "0") for i in range(0, end - pos, nb)]
                pos = end
        (directory / MEM_FILE).write_text("\n".join(data or ["@0", "0" * digits]) + "\n")
        masks: dict[int, int] = {}  # word address -> byte lanes a STORE may write
        for addr, n in self.writable:
            end = addr + n
            for w in range(addr - addr % nb, end, nb):
                lo, hi = max(addr, w) - w, min(end, w + nb) - w
                masks[w] = masks.get(w, 0) | ((1 << (hi - lo)) - 1) << lo
        allow: list[str] = []
        previous = None
        for w, m in sorted(masks.items()):
            index = self.word(w)
            if previous is None or index != previous + 1:
                allow.append(f"@{index:x}")
            allow.append(f"{m:x}")
            previous = index
        (directory / ALLOW_FILE).write_text("\n".join(allow or ["@0", "0"]) + "\n")

    def dump_ranges(self) -> list[tuple[int, int, int]]:
        """(first word, last word, byte address of the first word) covering every compared
        byte, one entry per run of words contiguous in both address spaces."""
        out: list[tuple[int, int, int]] = []
        for addr, n in _words(self.compared, self.bus_bytes):
            pos = addr
            while pos < addr + n:
                end = min(addr + n, (pos // PAGE + 1) * PAGE)
                first, last = self.word(pos), self.word(end - 1)
                if out and out[-1][1] + 1 == first and \
                        out[-1][2] + (first - out[-1][0]) * self.bus_bytes == pos:
                    out[-1] = (out[-1][0], last, out[-1][2])
                else:
                    out.append((first, last, pos))
                pos = end
        return out


def _words(ranges: Iterable[tuple[int, int]], nb: int) -> list[tuple[int, int]]:
    """Byte ranges widened to whole words and merged: (first byte, length), sorted."""
    spans = sorted((a - a % nb, a + n + (-(a + n)) % nb) for a, n in ranges if n > 0)
    out: list[tuple[int, int]] = []
    for lo, hi in spans:
        if out and lo <= out[-1][0] + out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][0] + out[-1][1], hi) - out[-1][0])
        else:
            out.append((lo, hi - lo))
    return out


def parse_dump(text: str, first: int, last: int, bus_bytes: int) -> bytes:
    """The bytes of words [first, last] from a $writememh file (Icarus adds // comments)."""
    words = [t for line in text.splitlines() if not line.startswith("//")
             for t in line.split() if not t.startswith("@")]
    if len(words) != last - first + 1:
        raise ValueError(f"{DUMP_FILE}: {len(words)} words, expected {last - first + 1}")
    return b"".join(bytes.fromhex(w.rjust(bus_bytes * 2, "0"))[::-1] for w in words)
