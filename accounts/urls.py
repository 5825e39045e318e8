from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy
from django.views.decorators.http import require_http_methods, require_safe

from accounts import views
from accounts.forms import ThrottledPasswordResetForm

app_name = "accounts"
# Django's password views also answer PUT (as POST) and OPTIONS; here, as everywhere on the
# site, a form is read with GET and sent with POST, and a page only read.
form = require_http_methods(["GET", "HEAD", "POST"])
page = require_safe

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/edit/", views.profile_edit, name="profile_edit"),
    path("profile/bot/", views.bot_upgrade, name="bot_upgrade"),
    path("tokens/", views.api_token_list, name="api_tokens"),
    path("tokens/new/", views.api_token_create, name="api_token_create"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("u/<str:username>/", views.profile_detail, name="profile_detail"),
    # Password change and reset: Django's own views, our templates (templates/registration/).
    path("password/change/", form(auth_views.PasswordChangeView.as_view(
        success_url=reverse_lazy("accounts:password_change_done"))), name="password_change"),
    path("password/change/done/", page(auth_views.PasswordChangeDoneView.as_view()),
         name="password_change_done"),
    path("password/reset/", form(auth_views.PasswordResetView.as_view(
        form_class=ThrottledPasswordResetForm,
        success_url=reverse_lazy("accounts:password_reset_done"))), name="password_reset"),
    path("password/reset/sent/", page(auth_views.PasswordResetDoneView.as_view()),
         name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", form(auth_views.PasswordResetConfirmView.as_view(
        success_url=reverse_lazy("accounts:password_reset_complete"))),
        name="password_reset_confirm"),
    path("password/reset/done/", page(auth_views.PasswordResetCompleteView.as_view()),
         name="password_reset_complete"),
]
