from __future__ import annotations

from django.contrib import admin

from ladder.models import GameRecord, Match, PlayerResult, Queue, QueueTicket, Rating


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game_kind", "ladder", "rating", "games", "wins", "peak",
                    "updated_at")
    list_filter = ("game_kind", "ladder")
    search_fields = ("user__username",)


class PlayerResultInline(admin.TabularInline):
    model = PlayerResult
    extra = 0
    fields = ("seat", "name", "user", "is_bot", "placement", "left", "rating_before",
              "rating_after")
    readonly_fields = fields
    can_delete = False


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ("game", "game_kind", "ladder", "seat_count", "ranked", "rated",
                    "unrated_reason", "finished_at")
    list_filter = ("game_kind", "ladder", "ranked", "rated")
    inlines = [PlayerResultInline]


@admin.register(QueueTicket)
class QueueTicketAdmin(admin.ModelAdmin):
    list_display = ("name", "queue", "status", "rating", "joined_at", "sockets", "match")
    list_filter = ("status", "queue")


admin.site.register(Queue)
admin.site.register(Match)
