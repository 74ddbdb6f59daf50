"""The fast memory's files (tb/uvm/agents/fastmem.py) for an image that covers part of a page.

DRAM outside every init image reads as 0 (spec section 6). The fast memory gets there in
two steps: the RTL's `load` clears every physical page the job maps, then $readmemh writes
the image's words only. So an image that covers a few bytes of a page must map that page
and write nothing but the bus words holding those bytes (zero-filled around them); the rest
of the page, and every page the job does not map, then reads zero. The directed vectors
zero_dram_* check the RTL side on both simulators.
"""
from __future__ import annotations

from pathlib import Path

from models.dram import Dram
from tb.uvm.agents.fastmem import ALLOW_FILE, DIR_FILE, MEM_FILE, MemoryImage

LOG_PAGES = 9  # the fast bench's default: 512 physical pages


def test_a_partially_covered_page_maps_and_writes_only_the_images_word(tmp_path: Path) -> None:
    """3 bytes at 0x10005 on an 8-byte bus: virtual page 1 maps to physical page 0 (directory
    entry {valid, 0} = 0x200), and the image file holds one word, bytes 0x10000..0x10007 as
    the little-endian 64-bit value 0x0302010000000000."""
    image = MemoryImage(Dram.from_images([(0x10005, b"\x01\x02\x03")]), [(0x10005, 3)], [], [],
                        bus_bytes=8, log_pages=LOG_PAGES)
    assert image.pages == {1: 0}
    image.write_files(tmp_path)
    assert (tmp_path / DIR_FILE).read_text() == "@1\n200\n"
    assert (tmp_path / MEM_FILE).read_text() == "@0\n0302010000000000\n"
    assert (tmp_path / ALLOW_FILE).read_text() == "@0\n0\n"  # no STORE: no byte may be written

