"""The Celery side: the app and its queues (celery_app.py), thin tasks (tasks.py) over plain
functions that play a stored match (jobs.py), feed the queue (scheduler.py, events.py), and stop a
worker without leaving a sandbox behind (shutdown.py)."""
