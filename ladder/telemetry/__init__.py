"""What the ladder says about itself: its log lines (logs.py) and its Prometheus metrics
(metrics.py), with where a process keeps them (metrics_dir.py, which never imports the client)."""
