"""The dragon bot ladder."""

__version__ = "0.1.0"
