"""Rounds as ordered steps: draft/auction, stock, operating."""
