"""A 32-bit system call (int 0x80) from a 64-bit process: the classic way around a 64-bit filter."""
import ctypes
import mmap

import _probe as p

p.context()
code = bytes([0xB8, 0x14, 0, 0, 0, 0xCD, 0x80, 0xC3])  # mov eax, 20 (getpid, i386); int 0x80; ret
page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
page.write(code)
func = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))
p.report(armed=True)
p.report(survived=func())
p.report(done=True)
