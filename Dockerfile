# The bot in a container: `docker build -t doujin-table .` then `docker run -d --env-file .env
# -v doujin-data:/data doujin-table`, or with PostgreSQL: `docker compose up -d` (compose.yaml).
# docs/operating.md, "Deploying".
FROM python:3.11-slim

# METRICS_HOST: the metrics, when METRICS_PORT is set, must be reachable from outside the container.
# DATABASE_URL: the SQLite file in the /data volume (without it the bot would use bot.sqlite3 next
# to bot.py, /app/bot.sqlite3: inside the image, lost with it); an --env-file or compose.yaml
# may set another one.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    METRICS_HOST=0.0.0.0 \
    DATABASE_URL=sqlite:////data/bot.sqlite3

WORKDIR /app
# the code (.dockerignore keeps .env, databases and environments out), installed with its
# dependencies
COPY . .
RUN pip install . \
    && useradd --system --create-home --home-dir /home/doujin doujin \
    && mkdir -p /data && chown doujin:doujin /data

USER doujin
# The bot runs in /data, the volume: the SQLite file above, an SQLite DATABASE_URL with a relative
# path (sqlite:///bot.sqlite3) and relative `--backup` paths land there; compose.yaml uses
# PostgreSQL instead.
WORKDIR /data
VOLUME ["/data"]

# With METRICS_PORT set, Docker asks /healthz (200 while every shard is connected and the
# database answers); without it there is nothing to ask and the check passes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD python -c "import os, sys, urllib.request; p = os.environ.get('METRICS_PORT'); sys.exit(0) if not p else urllib.request.urlopen(f'http://127.0.0.1:{p}/healthz', timeout=8)"

# Every acknowledged command is already committed, so `docker stop` (SIGTERM) loses nothing;
# the database is migrated at each start.
CMD ["python", "/app/bot.py"]
