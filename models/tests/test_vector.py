"""Vector format (spec section 6): save/load and every malformed-manifest rule."""
import json
from pathlib import Path

import pytest

from models.dram import Dram, DramError
from models.spec.configs import load_config
from models.vector import Image, Vector, VectorError, find_vectors, load_vector, save_vector


def _vector() -> Vector:
    return Vector(load_config("small"), insn_addr=0x1000, insn_count=2,
                  init=[Image(0x1000, bytes(32)), Image(0x40, b"\x01\x02")],
                  expect=[Image(0x2000, b"\xff")], bases={"uop": 0, "inp": 0x10, "wgt": 0,
                                                          "acc": 0, "out": 0x2000},
                  description="d")


def test_save_load_round_trip(tmp_path: Path) -> None:
    path = save_vector(_vector(), tmp_path / "v")
    back = load_vector(path)
    assert back.config == load_config("small")
    assert (back.insn_addr, back.insn_count, back.description) == (0x1000, 2, "d")
    assert [(i.addr, i.data) for i in back.init] == [(0x1000, bytes(32)), (0x40, b"\x01\x02")]
    assert back.expect is not None
    assert [(i.addr, i.data) for i in back.expect] == [(0x2000, b"\xff")]
    assert back.bases["inp"] == 0x10 and back.bases["wgt"] == 0
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["format"] == "vta-vector-1" and manifest["config"]["LOG_BLOCK"] == 2
    dram = back.dram()
    assert dram.read_bytes(0x3f, 4) == b"\x00\x01\x02\x00"


def _write(tmp_path: Path, manifest: dict, files: dict[str, bytes] | None = None) -> Path:
    tmp_path.mkdir(exist_ok=True)
    for name, data in (files or {"a.bin": b"\x00" * 4}).items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


BASE = {"format": "vta-vector-1", "insn_addr": 0, "insn_count": 0, "init": [{"addr": 0, "file": "a.bin"}]}


@pytest.mark.parametrize("change, message", [
    ({"format": "other"}, "format is 'other'"),
    ({"insn_count": -1}, "insn_count"),
    ({"insn_addr": "0"}, "insn_addr: must be an integer"),
    ({"init": [{"addr": 0, "file": "nope.bin"}]}, "init[0]: cannot read file 'nope.bin'"),
    ({"init": [{"addr": 1 << 32, "file": "a.bin"}]}, "init[0].addr"),
    ({"init": [{"addr": (1 << 32) - 2, "file": "a.bin"}]}, "runs beyond 4 GiB"),
    ({"init": [{"addr": 0, "file": "a.bin"}, {"addr": 2, "file": "a.bin"}]},
     "init[0] ('a.bin', [0x0, 0x4)) overlaps init[1]"),
    ({"init": [{"addr": 0}]}, "init[0]: must be an object with exactly the keys"),
    ({"config": {"LOG_BLOCK": 99}}, "'LOG_BLOCK' = 99 is out of range"),
    ({"bases": {"foo": 1}}, "bases must be an object"),
    ({"expect": {"addr": 0}}, "expect: must be a list"),
    ({"surprise": 1}, "unknown key(s) surprise"),
    ({"init": [{"addr": 0, "file": "/etc/hostname"}]}, "init[0].file: '/etc/hostname' must be a path inside"),
    ({"init": [{"addr": 0, "file": "../a.bin"}]}, "init[0].file: '../a.bin' must be a path inside"),
    ({"init": [{"addr": 0, "file": ""}]}, "init[0].file: must be a non-empty relative path"),
    ({"expect": [{"addr": 0, "file": "a.bin"}, {"addr": 3, "file": "a.bin"}]},
     "expect[0] ('a.bin', [0x0, 0x4)) overlaps expect[1]"),
])
def test_malformed_manifest_names_entry(tmp_path: Path, change: dict, message: str) -> None:
    path = _write(tmp_path, {**BASE, **change})
    with pytest.raises(VectorError) as info:
        load_vector(path)
    assert str(path / "manifest.json") in str(info.value)
    assert message in str(info.value)


def test_missing_key_and_missing_manifest(tmp_path: Path) -> None:
    manifest = dict(BASE)
    del manifest["insn_count"]
    with pytest.raises(VectorError, match="missing required key 'insn_count'"):
        load_vector(_write(tmp_path / "a", manifest))
    with pytest.raises(VectorError, match="no such directory; a vector is a directory holding manifest.json"):
        load_vector(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(VectorError, match="no manifest.json"):
        load_vector(tmp_path / "empty")
    (tmp_path / "file").write_text("{}")
    with pytest.raises(VectorError, match="file: not a directory"):
        load_vector(tmp_path / "file")


@pytest.mark.parametrize("text, message", [
    (b'{"format": "vta-vector-1", "format": "vta-vector-1"}', "not valid JSON: duplicate key 'format'"),
    (b'{"description": "\xff"}', "not UTF-8 text (byte 0xff on line 1)"),
    (b"[" * 100_000 + b"]" * 100_000, "not valid JSON: nested too deeply"),
    (b'{"insn_addr": ' + b"1" * 5000 + b"}", "not valid JSON: an integer literal has too many digits"),
])
def test_unreadable_manifest_is_one_vector_error(tmp_path: Path, text: bytes, message: str) -> None:
    (tmp_path / "manifest.json").write_bytes(text)
    with pytest.raises(VectorError) as info:
        load_vector(tmp_path)
    assert str(info.value) == f"{tmp_path / 'manifest.json'}: {message}"


def test_dram_is_sparse_and_bounded() -> None:
    dram = Dram()
    dram.write(0xFFFF_FFF0, bytes(range(16)))
    dram.write(0x0FFE, b"\xaa\xbb\xcc\xdd")  # crosses a 4 KiB page
    assert dram.read_bytes(0x0FFE, 4) == b"\xaa\xbb\xcc\xdd"
    assert dram.read_bytes(0xFFFF_FFFE, 2) == b"\x0e\x0f"
    assert dram.read_bytes(0x5000, 3) == bytes(3)
    with pytest.raises(DramError, match="outside the 4 GiB"):
        dram.read(0xFFFF_FFFF, 2)


def test_find_vectors(tmp_path: Path) -> None:
    one = save_vector(_vector(), tmp_path / "set" / "a")
    two = save_vector(_vector(), tmp_path / "set" / "deeper" / "b")
    assert find_vectors([one]) == [one]
    assert find_vectors([tmp_path / "set"]) == [one, two]
    (tmp_path / "empty").mkdir()
    for bad in (tmp_path / "empty", tmp_path / "missing"):
        with pytest.raises(VectorError, match=f"{bad}: neither a vector"):
            find_vectors([bad])
    (tmp_path / "file").write_text("{}")
    with pytest.raises(VectorError, match=f"{tmp_path / 'file'}: not a directory"):
        find_vectors([tmp_path / "file"])


# --- init images and what is read from them ----------------------------------------
def _copy(tmp_path: Path, name: str) -> Path:
    """A copy of a committed vector (alu_add: insns.bin at 0x2000, 17 instructions;
    load_acc_store: LOAD ACC of 8 small-config elements from acc_in.bin at 0xc000, STORE
    of them to 0x10000)."""
    import shutil
    src = Path(__file__).resolve().parents[2] / "vectors" / name
    return Path(shutil.copytree(src, tmp_path / name))


def test_insn_count_beyond_the_instruction_image(tmp_path: Path) -> None:
    path = _copy(tmp_path, "alu_add")
    (path / "insns.bin").write_bytes((path / "insns.bin").read_bytes()[:16 * 16])
    with pytest.raises(VectorError) as info:
        load_vector(path)
    text = str(info.value)
    assert str(path / "manifest.json") in text and "insn_count 17" in text
    assert "init[3] ('insns.bin', [0x2000, 0x2100))" in text
    assert "bytes [0x2100, 0x2110) (instruction 16) are in no init image" in text


def test_instructions_in_no_init_image(tmp_path: Path) -> None:
    path = _write(tmp_path, {**BASE, "insn_addr": 0x100, "insn_count": 2})
    with pytest.raises(VectorError, match=r"insn_count 2: .*\[0x100, 0x120\).* but no init image holds them"):
        load_vector(path)


def test_instructions_may_span_adjacent_images(tmp_path: Path) -> None:
    manifest = {**BASE, "insn_addr": 0, "insn_count": 2,
                "init": [{"addr": 0, "file": "a.bin"}, {"addr": 20, "file": "b.bin"}]}
    files = {"a.bin": bytes(20), "b.bin": bytes(12)}
    assert load_vector(_write(tmp_path, manifest, files)).insn_count == 2
    manifest["insn_count"] = 3
    with pytest.raises(VectorError, match=r"run beyond the end of init\[1\] \('b.bin', \[0x14, 0x20\)\)"):
        load_vector(_write(tmp_path, manifest, files))


def _stored(path: Path) -> tuple[list[str], bytes]:
    """The checker's notes and the 32 bytes load_acc_store's STORE leaves at 0x10000, after
    the checker found the program well-formed."""
    from models.checker import check_vector, reads_past_images
    from models.executor import run_vector
    vector = load_vector(path)
    report = check_vector(vector)
    assert report.ok, report.format()
    return reads_past_images(vector, report), run_vector(vector).dram.read_bytes(0x10000, 32)


def test_a_load_may_read_past_the_end_of_its_image(tmp_path: Path) -> None:
    """Spec section 6: bytes no image holds read as 0, also in the middle of a LOAD. acc_in.bin
    cut to 58 bytes keeps lanes 0..13 whole and the low 2 bytes of lane 14 (4-byte lanes);
    STORE keeps the low byte of each of the 32 lanes, so byte k is acc_in byte 4k, or 0."""
    path = _copy(tmp_path, "load_acc_store")
    data = (path / "acc_in.bin").read_bytes()
    (path / "acc_in.bin").write_bytes(data[:58])
    notes, stored = _stored(path)
    assert stored == bytes(data[4 * k] for k in range(15)) + bytes(17)
    assert stored != (path / "out.bin").read_bytes()  # the zeros changed the result
    assert notes == [f"{path / 'manifest.json'}: insn 0 (LOAD ACC push_next dram_base=3072 y_size=1 "
                     f"x_size=8 x_stride=8) reads DRAM [0xc000, 0xc080) starting inside init[0] "
                     f"('acc_in.bin', [0xc000, 0xc03a)), but bytes [0xc03a, 0xc080) are in no init "
                     f"image: they read as 0 (spec section 6; a truncated file would read the same)"]


def test_reading_dram_no_image_covers_is_legal(tmp_path: Path) -> None:
    """A LOAD wholly outside the images reads zeros by intent: every stored byte is 0, no note."""
    path = _copy(tmp_path, "load_acc_store")
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["init"] = [e for e in manifest["init"] if e["file"] != "acc_in.bin"]
    (path / "manifest.json").write_text(json.dumps(manifest))
    assert _stored(path) == ([], bytes(32))
