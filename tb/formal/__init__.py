"""Formal verification of rtl/ with SymbiYosys: module contracts and the whole top (`make formal`)."""
