"""Toy Nim's pure rules: the only part of the toy game a bot's sandbox would be given."""
