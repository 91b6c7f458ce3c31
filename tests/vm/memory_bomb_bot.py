"""A hostile bot for `ladder match`: takes memory without end instead of playing (tests/vm)."""
hoard = []
while True:
    hoard.append(bytearray(8 << 20))
    for i in range(0, len(hoard[-1]), 4096):  # touch every page: untouched ones cost nothing
        hoard[-1][i] = 1
