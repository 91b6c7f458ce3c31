"""The x32 ABI (syscall numbers with bit 30 set) can dodge filters written for x86-64 numbers."""
import _probe as p

p.context()
X32 = 0x40000000
p.report(armed=True)
p.report(x32_unshare=p.syscall(X32 | 272, 0x10000000), x32_getpid=p.syscall(X32 | 39))
p.report(done=True)
