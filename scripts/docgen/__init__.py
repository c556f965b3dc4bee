"""The generators of scripts/make_docs.py, one module per part of the documentation."""
