"""Never read stdin: the engine's writes must not block forever."""
import time

import _probe as p

p.report(ready=True)
time.sleep(3600)
