"""Chudopoly settings: everything comes from the environment, with embedded defaults.

With no environment at all the site runs on an SQLite file, an in-process channel layer and
in-process background tasks. `DATABASE_URL` switches to PostgreSQL (psycopg 3) and `REDIS_URL`
switches the channel layer to channels-redis and background work to Celery on that broker.
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from chudopoly_site.env import env_bool, env_float, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=True)

_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = env_str("SECRET_KEY", default=_DEV_SECRET if DEBUG else None, required=not DEBUG)
if not DEBUG and (SECRET_KEY == _DEV_SECRET or len(SECRET_KEY or "") < 50):
    raise ImproperlyConfigured("SECRET_KEY must be a random string of at least 50 characters")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "games.platform",
    "games.chudopoly",
    "games.boardroom",
    "games.commonwealth",
    "games.api",
    "accounts",
    "ladder",
    "challenges",
    "axes",
]

MIDDLEWARE = [
    "chudopoly_site.middleware.RefuseNulBytes",
    # Before anything reads X-Forwarded-Proto (SecurityMiddleware, CSRF, absolute links):
    # a forwarded header counts only from TRUSTED_PROXIES.
    "chudopoly_site.middleware.ForwardedHeadersFromTrustedProxiesOnly",
    # Before the session is read: /api/ authenticates by token alone (games/api/).
    "games.api.middleware.ApiIgnoresCookies",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "chudopoly_site.middleware.ThrottledPage",
    # Last, so it sees the response of a log-in that axes locked out (accounts.views).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "chudopoly_site.urls"
ASGI_APPLICATION = "chudopoly_site.asgi.application"
WSGI_APPLICATION = None

# The platform's pieces of the board games' partials (games/_why_not.html, …), written in the
# syntax both engines share and read by both: a game's partials include them whether they are
# Django or Jinja2 templates.
COMMON_TEMPLATES = BASE_DIR / "games" / "platform" / "common_templates"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", COMMON_TEMPLATES],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.platform.context.games_nav",
            ],
            # Every {% include … only %} is rendered once per distinct values and process.
            "builtins": ["games.platform.templatetags.shared_includes"],
        },
    },
    # The hot board partials (a game's jinja2/ folder): rendered on every push, and Jinja2
    # renders them several times faster. Set to print what Django would (games/platform/jinja.py).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [COMMON_TEMPLATES],
        "APP_DIRS": True,
        "OPTIONS": {
            "environment": "games.platform.jinja.environment",
            "helpers": ["games.chudopoly.templatetags.chudopoly.jinja_helpers"],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if DATABASE_URL:
    # Django's psycopg pool, one per process. Persistent connections (CONN_MAX_AGE > 0) are
    # per thread, and under ASGI every request served concurrently kept its own: a burst of 40
    # clients used up PostgreSQL's 100 connections and requests failed. A pooled connection
    # goes back to the pool at the end of each request, so a process never holds more than
    # DB_POOL_MAX_SIZE; a request that finds them all busy waits up to DB_POOL_TIMEOUT seconds.
    if env_int("CONN_MAX_AGE", 0, minimum=0) != 0:
        raise ImproperlyConfigured("CONN_MAX_AGE must be 0 or unset: PostgreSQL connections "
                                   "come from the pool (DB_POOL_MAX_SIZE)")
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0,
                                                  conn_health_checks=True)}
    _pool_min = env_int("DB_POOL_MIN_SIZE", 2, minimum=0)
    _pool_max = env_int("DB_POOL_MAX_SIZE", 10, minimum=1)
    if _pool_max < _pool_min:
        raise ImproperlyConfigured("DB_POOL_MAX_SIZE must be at least DB_POOL_MIN_SIZE")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": _pool_min,
        "max_size": _pool_max,
        "timeout": env_int("DB_POOL_TIMEOUT", 10, minimum=1),
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # A file, not memory, so a live Daphne started by the tests shares the test data;
            # one per test process, so two test runs on one machine never share it.
            "TEST": {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")},
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels, Celery and the task scheduler seam -----------------------------------------------
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
# "pubsub": channels-redis's pub/sub layer, each group message pushed once to every subscribed
# process. "core": its queue layer, where every message a socket receives costs a blocking pop,
# a backup write and a clean-up script on Redis: 7-24 % more web CPU per move and twice
# Redis's (docs/performance.md). Neither keeps a message through a Redis restart; the sockets'
# heartbeats catch up on what they missed (games/platform/heartbeat.py).
CHANNEL_LAYER = env_str("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured("CHANNEL_LAYER must be 'core' or 'pubsub'")
# Key prefix of the channel layer, and of the worker and beat heartbeats in Redis.
CHANNEL_PREFIX = env_str("CHANNEL_PREFIX", "chudopoly")
# redis-py 8 reads with a 5 s socket timeout by default, the same as the core layer's blocking
# BZPOPMIN: every socket idle for 5 s would crash and reconnect (channels_redis#422). Reads may
# take longer than the block; a dead Redis is still noticed.
_LAYER_CONFIG = {
    "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "socket_connect_timeout": 5}],
    "prefix": CHANNEL_PREFIX,
}
CHANNEL_LAYER_CHOICES = {
    "pubsub": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
               "CONFIG": _LAYER_CONFIG},
    "core": {"BACKEND": "channels_redis.core.RedisChannelLayer",
             "CONFIG": {**_LAYER_CONFIG, "capacity": 1500, "expiry": 30}},
}
if REDIS_URL:
    CHANNEL_LAYERS = {"default": CHANNEL_LAYER_CHOICES[CHANNEL_LAYER]}
else:
    # In process: channels' in-memory layer, woken by sends from other threads too.
    CHANNEL_LAYERS = {"default": {
        "BACKEND": "chudopoly_site.channel_layer.LoopSafeInMemoryChannelLayer"}}

# "celery" sends scheduled work to the broker; "inprocess" runs it on a thread of this process.
# The web process's garbage collector (chudopoly_site/web_process.py, docs/performance.md): a full
# collection stops every socket of the process for 50-250 ms, so it runs a tenth as often as
# Python's default (every 100 middle-generation collections instead of 10).
GC_FULL_EVERY = env_int("GC_FULL_EVERY", 100, minimum=1)
# How many more container objects than freed a web process makes before a young collection
# (Python's default: 700). A move makes and frees tens of thousands; at 700 a Chudopoly move
# paid about 0.3 ms for some 0.2 young and 0.02 middle passes, most of it walking what lived a
# moment longer; at 5000 about 0.15 ms, in passes of about 6 ms (docs/performance.md).
GC_YOUNG_EVERY = env_int("GC_YOUNG_EVERY", 5000, minimum=100)
# How long (microseconds) a thread of the web process may hold the GIL while another waits
# for it (chudopoly_site/web_process.py). A move's handler gives the GIL up at each of its database
# round trips and waits up to this long to get it back from the event loop; Python's default,
# 5000, cost the slowest moves 6-9 ms at 100 tables (docs/performance.md).
GIL_SWITCH_MICROSECONDS = env_int("GIL_SWITCH_MICROSECONDS", 1000, minimum=100)
TASK_BACKEND = env_str("TASK_BACKEND", "celery" if REDIS_URL else "inprocess")
if TASK_BACKEND not in ("celery", "inprocess"):
    raise ImproperlyConfigured("TASK_BACKEND must be 'celery' or 'inprocess'")
if TASK_BACKEND == "celery" and not REDIS_URL:
    raise ImproperlyConfigured("REDIS_URL must be set when TASK_BACKEND is 'celery'")

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A lost broker is retried for ever, at start-up and later: a Redis restart must never end
# the worker (chudopoly_site/broker_fixes.py covers the kombu faults that did).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Redis connections are pinged when idle this long (s), so a restarted Redis is noticed
# between tasks rather than by the next task's failure.
CELERY_BROKER_TRANSPORT_OPTIONS = {"health_check_interval": 10}
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = 10
# Storing a result retries through a Redis restart instead of failing the task.
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_RESULT_BACKEND_MAX_RETRIES = 20
CELERY_RESULT_EXPIRES = 3600
# The site's tasks are fire and forget (they act on the database; nobody waits for an answer):
# storing their results, and subscribing to each one's result when it is sent, cost the web
# process CPU on every move that schedules a task. Only a task declared otherwise keeps one
# (chudopoly.ping, for health checks).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"

# The worker and beat write a heartbeat into Redis this often (s); /healthz reports either
# as failed when its newest heartbeat is older than HEARTBEAT_STALE_SECONDS
# (chudopoly_site/heartbeats.py).
HEARTBEAT_SECONDS = env_float("HEARTBEAT_SECONDS", 5.0)
HEARTBEAT_STALE_SECONDS = env_float("HEARTBEAT_STALE_SECONDS", 30.0)
if not 0 < HEARTBEAT_SECONDS < HEARTBEAT_STALE_SECONDS:
    raise ImproperlyConfigured("HEARTBEAT_SECONDS must be above 0 and below "
                               "HEARTBEAT_STALE_SECONDS")
# The scheduling Celery beat holds a lock in Redis for BEAT_LOCK_SECONDS and renews it every
# BEAT_LOCK_RENEW_SECONDS; a waiting beat tries to take it as often (chudopoly_site/beat_lock.py).
BEAT_LOCK_SECONDS = env_float("BEAT_LOCK_SECONDS", 10.0)
BEAT_LOCK_RENEW_SECONDS = env_float("BEAT_LOCK_RENEW_SECONDS", 2.0)
if not 0 < BEAT_LOCK_RENEW_SECONDS < BEAT_LOCK_SECONDS:
    raise ImproperlyConfigured("BEAT_LOCK_RENEW_SECONDS must be above 0 and below "
                               "BEAT_LOCK_SECONDS")
# Each web process writes the "web" heartbeat into the database this often (s; 0: never).
# The clocks expire nothing while it is three beats late, and give the time it was late back
# to every running clock once it is fresh again (games/platform/outages.py).
WEB_HEARTBEAT_SECONDS = env_float("WEB_HEARTBEAT_SECONDS", 2.0)
if WEB_HEARTBEAT_SECONDS < 0:
    raise ImproperlyConfigured("WEB_HEARTBEAT_SECONDS must be zero or more")

# How long a bot waits before each move, so humans can follow its play (0 in tests).
BOT_PAUSE_SECONDS = float(env_str("BOT_PAUSE_SECONDS", "1.2") or 0)
if BOT_PAUSE_SECONDS < 0:
    raise ImproperlyConfigured("BOT_PAUSE_SECONDS must be zero or more")

# How long a scheduled auto move waits, so the player sees the position and can still press a
# button first (which cancels it). Tests set it to 0.
AUTO_MOVE_SECONDS = env_float("AUTO_MOVE_SECONDS", 2.0)
if AUTO_MOVE_SECONDS < 0:
    raise ImproperlyConfigured("AUTO_MOVE_SECONDS must be zero or more")

# A game none of whose humans is present is closed (unrated) after this long without a move;
# its bots stop at once. One player keeps at most this many bot games running
# (games/platform/abandoned.py).
ABANDONED_GAME_CLOSE_MINUTES = env_int("ABANDONED_GAME_CLOSE_MINUTES", 10, minimum=1)
BOT_GAMES_PER_PLAYER = env_int("BOT_GAMES_PER_PLAYER", 3, minimum=1)

# Periodic jobs, run by Celery beat or by the in-process scheduler: task name -> seconds.
PERIODIC_TASKS: dict[str, float] = {}

# --- Cache: the throttles' counters (chudopoly_site/throttle.py) -------------------------------
# With REDIS_URL the counters live in Redis, so a limit holds across every web process; the
# embedded default keeps them in this process's memory.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": f"{CHANNEL_PREFIX}-cache"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Throttles: password-reset mails per e-mail address and per client address, and misses
# (unknown table codes, wrong invite tokens) per client address, each per window.
PASSWORD_RESET_PER_EMAIL = env_int("PASSWORD_RESET_PER_EMAIL", 3, minimum=1)
PASSWORD_RESET_PER_CLIENT = env_int("PASSWORD_RESET_PER_CLIENT", 10, minimum=1)
PASSWORD_RESET_WINDOW_SECONDS = 60 * 60
TABLE_MISSES_PER_CLIENT = env_int("TABLE_MISSES_PER_CLIENT", 20, minimum=1)
TABLE_MISS_WINDOW_SECONDS = 10 * 60
# The bot API's limits (docs/api.md, "Limits"): requests a minute per token (a move is one),
# and games a bot account plays at once.
API_REQUESTS_PER_MINUTE = env_int("API_REQUESTS_PER_MINUTE", 1200, minimum=1)
BOT_CONCURRENT_GAMES = env_int("BOT_CONCURRENT_GAMES", 8, minimum=1)

# --- Auth, sessions, security ------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes counts failed log-ins and refuses a locked-out (name, address) pair before the
# password is checked; its backend must come first.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.views.axes_username"
# The log-in page itself says when to try again (accounts.views.login_view).
AXES_LOCKOUT_CALLABLE = "accounts.views.axes_lockout_response"
AXES_VERBOSE = False
# Where the client's address comes from (chudopoly_site/client_address.py): the connection's own
# address, and X-Forwarded-For only when that connection comes from one of TRUSTED_PROXIES
# (comma-separated addresses or CIDR blocks; none by default, so a client that reaches Daphne
# directly cannot pick its address for the lockout and the throttles).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
try:
    TRUSTED_PROXY_NETWORKS = tuple(ipaddress.ip_network(entry, strict=False)
                                   for entry in TRUSTED_PROXIES)
except ValueError as exc:
    raise ImproperlyConfigured(
        f"TRUSTED_PROXIES must list addresses or CIDR blocks: {exc}") from exc
# The django-ipware knobs of earlier releases read headers from any client; refuse them rather
# than key every client behind a proxy on the proxy's address without a word.
for _retired in ("AXES_IPWARE_META_PRECEDENCE_ORDER", "AXES_IPWARE_PROXY_COUNT",
                 "AXES_IPWARE_PROXY_ORDER", "AXES_IPWARE_PROXY_TRUSTED_IPS"):
    if env_str(_retired) is not None:
        raise ImproperlyConfigured(f"{_retired} is no longer read: list the proxies in "
                                   "TRUSTED_PROXIES instead (docs/deploy.md)")
AXES_CLIENT_IP_CALLABLE = "chudopoly_site.client_address.client_address"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    # Read only from TRUSTED_PROXIES: chudopoly_site.middleware drops it from anyone else.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# Exempt the health check from the HTTPS redirect so load balancers can probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- Email (password resets) ----------------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Chudopoly <noreply@chudopoly.local>")

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
