"""Two pairing runs at the same moment (two workers, or beat and a manual run) make one table."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from ladder_helpers import ticket

from games.platform.models import Table
from ladder import services
from ladder.models import Match, QueueTicket


@pytest.mark.django_db(transaction=True)
def test_running_the_pairing_twice_at_once_makes_one_table(alice, bob, monkeypatch) -> None:
    # Ratings 300 apart meet only after 10 s of waiting: a pairing sweep running in the
    # background now (the CI worker's beat) leaves them alone, the two runs here look later.
    joined = timezone.now()
    ticket(alice, rating=1200, joined=joined)
    ticket(bob, rating=1500, joined=joined)
    later = joined + timedelta(seconds=20)
    create = services._match_create
    other_run_finished = threading.Event()
    lock_holder_saw_the_other_run_finish: list[bool] = []
    # Only PostgreSQL skips locked rows; SQLite serialises the two runs instead.
    patience = 15.0 if connection.vendor == "postgresql" else 0.2

    def slow_create(*args, **kwargs):
        # Hold the queue's lock until the other run has finished: it can only finish now
        # if it skipped the locked queue instead of waiting for it.
        lock_holder_saw_the_other_run_finish.append(other_run_finished.wait(patience))
        return create(*args, **kwargs)

    monkeypatch.setattr(services, "_match_create", slow_create)
    barrier = threading.Barrier(2)
    made: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            tables = len(services.queue_pair(now=later))
            made.append(tables)
            if tables == 0:
                other_run_finished.set()
        except BaseException as exc:  # reported below; a thread must not swallow it
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert sorted(made) == [0, 1]
    assert Match.objects.count() == 1 and Table.objects.count() == 1
    assert QueueTicket.objects.filter(status="matched").count() == 2
    if connection.vendor == "postgresql":
        # The second run skipped the locked queue instead of waiting for it.
        assert lock_holder_saw_the_other_run_finish == [True]
