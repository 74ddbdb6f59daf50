"""Sequences: one virtual sequence or flow per module, and the table of which one each job
kind runs (sequences.py)."""
