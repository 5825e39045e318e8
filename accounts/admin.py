from __future__ import annotations

from django.contrib import admin

from accounts.models import LoginFailure, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name")
    search_fields = ("user__username", "display_name")


@admin.register(LoginFailure)
class LoginFailureAdmin(admin.ModelAdmin):
    list_display = ("username", "ip", "created_at")
    search_fields = ("username", "ip")
