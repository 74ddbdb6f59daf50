"""Rule ids of spec section 4, one vocabulary for the checker's findings and the executor's errors.

The checker decides every rule statically (:mod:`models.checker`); the executor stops at
the first rule it trips while running (:class:`models.executor.ProgramError`) and names it
with the same id, so a finding and an execution error about one problem read alike.
"""
from __future__ import annotations

RULES: dict[str, str] = {
    "illegal-opcode": "opcode 5..7: the instruction cannot be decoded",
    "illegal-memory-type": "LOAD/STORE memory_type 6 or 7, a LOAD of OUT, or a STORE of anything but OUT",
    "illegal-alu-opcode": "ALU alu_opcode 5..7",
    "illegal-flag": "a dependency flag the module has no queue for (load: pop_prev/push_prev; "
                    "store: pop_next/push_next)",
    "store-pad": "a STORE with a non-zero pad",
    "index-overflow": "an SRAM index beyond its buffer depth, uop_end beyond the micro-op buffer, "
                      "or a DRAM access (or the instruction stream) beyond 4 GiB",
    "token-imbalance": "a token queue whose pushes and pops differ at the end of the program",
    "deadlock": "the program cannot complete with the hardware's command and token queue depths",
    "missing-finish": "no FINISH, or instructions after the first FINISH",
    "store-after-finish": "a STORE that does not happen-before FINISH, so DONE would not mean "
                          "its results are in DRAM",
    "data-race": "two accesses from different modules to one SRAM entry or DRAM byte, one a write, "
                 "not ordered by tokens; or a STORE that overwrites the instruction stream",
    "uop-from-store": "a LOAD UOP reads DRAM that a STORE of the program writes, so the micro-ops "
                      "(and the footprints of the GEMM/ALU using them) cannot be checked statically",
    "uninitialized-read": "an SRAM entry read before any write to it happens-before the read "
                          "(SRAM is not cleared by reset or launch, so its value is undefined)",
}
