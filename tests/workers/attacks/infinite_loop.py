"""Never answer: spin forever."""
import _probe as p

p.context()
p.report(spinning=True)
while True:
    pass
