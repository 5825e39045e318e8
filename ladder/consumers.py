"""The queue page's socket: push-only live status (waited time, queued count, window) and the
jump to the table when matched. Closing the last queue page drops the ticket (after a grace
period, so a reload does not)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from games.platform.heartbeat import HeartbeatMixin
from games.platform.identity import viewer_from_scope
from ladder import broadcast, services
from ladder.models import QueueTicket
from ladder.queries import queue_status_context


class QueueConsumer(HeartbeatMixin, WebsocketConsumer):
    ticket_id: int | None = None
    groups_joined: tuple[str, ...] = ()
    sent_match = False  # the jump to the table goes out once (a second would abort the first)

    def connect(self) -> None:
        self.viewer = viewer_from_scope(self.scope)
        self.accept()
        ticket = services.waiting_ticket(self.viewer)
        if ticket is None:
            latest = services.latest_ticket(self.viewer)
            if latest is not None and latest.status == QueueTicket.Status.MATCHED \
                    and latest.arrived_at is None:
                self.ticket_id = latest.pk
                self.push()
            return
        self.ticket_id = ticket.pk
        self.groups_joined = (broadcast.ticket_group(ticket.pk),
                              broadcast.queue_group(ticket.queue_id))
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        services.queue_socket_opened(ticket_id=ticket.pk)
        self.push()

    def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        if self.groups_joined and self.ticket_id is not None:
            services.queue_socket_closed(ticket_id=self.ticket_id)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # push-only

    # --- group messages -------------------------------------------------------------------
    def queue_update(self, event: dict[str, Any]) -> None:
        self.push()

    def queue_matched(self, event: dict[str, Any]) -> None:
        self.push()

    def socket_heartbeat(self, event: dict[str, Any]) -> None:
        # A quiet spell (games/platform/heartbeat.py): join the groups again (a restarted Redis
        # forgot them) and show the current status, in case a match was made meanwhile.
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.push()

    def push(self) -> None:
        ticket = (QueueTicket.objects.select_related("queue").filter(pk=self.ticket_id).first()
                  if self.ticket_id else None)
        if ticket is None or self.sent_match:
            return
        self.sent_match = ticket.status == QueueTicket.Status.MATCHED
        if ticket.status == QueueTicket.Status.WAITING:
            services.queue_seen(ticket_id=ticket.pk)
        csrf = (self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
        self.send(text_data=render_to_string("ladder/_queue_status.html", {
            "s": queue_status_context(ticket), "oob": True, "csrf_value": csrf}))
