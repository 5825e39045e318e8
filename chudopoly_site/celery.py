"""The Celery app: broker and options come from Django settings (CELERY_* names)."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import beat_init, worker_ready

from chudopoly_site import broker_fixes, parent_death

broker_fixes.install()
parent_death.follow_parent()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chudopoly_site.settings")

app = Celery("chudopoly_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def _schedule_periodic_tasks(sender: Celery, **_: object) -> None:
    # Beat reads the same PERIODIC_TASKS table as the in-process scheduler, so both backends
    # run the same sweeps.
    from django.conf import settings

    for name, seconds in settings.PERIODIC_TASKS.items():
        sender.add_periodic_task(seconds, sender.signature(name), name=name)


@worker_ready.connect
def _worker_heartbeat(**_: object) -> None:
    # /healthz reads these (chudopoly_site/heartbeats.py); only a broker-backed site has them.
    from chudopoly_site import heartbeats

    heartbeats.start("worker")


@beat_init.connect
def _beat_lock_and_heartbeat(sender: object, **_: object) -> None:
    # Sent before the beat's first tick: a second beat waits here, scheduling nothing, until
    # the first lets the lock go (chudopoly_site/beat_lock.py); only the scheduling beat beats.
    from chudopoly_site import beat_lock, heartbeats

    beat_lock.hold(sender)
    heartbeats.start("beat")
