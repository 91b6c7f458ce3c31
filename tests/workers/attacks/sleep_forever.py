"""Never answer: sleep forever."""
import time

import _probe as p

p.context()
p.report(sleeping=True)
time.sleep(10**6)
