"""Sign-up, log-in with throttling, log-out, password change and reset, profile pages."""

from __future__ import annotations

import re
from ipaddress import ip_network

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"
LOGIN_FAILURES_ALLOWED = django_settings.AXES_FAILURE_LIMIT


def _sign_up(client: Client, username: str = "alice", **extra: str):
    data = {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD,
            **extra}
    return client.post(reverse("accounts:signup"), data)


def test_signing_up_creates_the_account_logs_in_and_shows_the_profile(client: Client) -> None:
    response = _sign_up(client, email="alice@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    user = get_user_model().objects.get(username="alice")
    assert user.email == "alice@example.com" and Profile.objects.filter(user=user).exists()
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(reverse("accounts:profile"), follow=True)
    assert b'id="profile-name">alice<' in page.content


def test_email_is_optional(client: Client) -> None:
    _sign_up(client, "bob")
    assert get_user_model().objects.get(username="bob").email == ""


def test_usernames_are_unique_ignoring_case(client: Client) -> None:
    _sign_up(client, "Alice")
    client.logout()
    response = _sign_up(client, "alice")
    assert response.status_code == 200
    assert b"That name is taken" in response.content


def test_usernames_must_work_as_table_names(client: Client) -> None:
    response = _sign_up(client, "a b<script>")
    assert response.status_code == 200
    assert not get_user_model().objects.exists()


def test_weak_and_mismatched_passwords_are_refused(client: Client) -> None:
    response = client.post(reverse("accounts:signup"), {
        "username": "carol", "password1": "12345678", "password2": "12345678"})
    assert b"too common" in response.content or b"entirely numeric" in response.content
    response = client.post(reverse("accounts:signup"), {
        "username": "carol", "password1": PASSWORD, "password2": PASSWORD + "x"})
    assert b"The two passwords differ." in response.content
    assert not get_user_model().objects.exists()


def test_logging_in_and_out(client: Client) -> None:
    get_user_model().objects.create_user(username="Dave", password=PASSWORD)
    response = client.post(reverse("accounts:login"), {"username": "dave",
                                                       "password": PASSWORD})
    assert response.status_code == 302  # the name is found ignoring case
    assert "_auth_user_id" in client.session
    client.post(reverse("accounts:logout"))
    assert "_auth_user_id" not in client.session


def test_log_in_goes_back_to_a_safe_next_page_only(client: Client) -> None:
    get_user_model().objects.create_user(username="erin", password=PASSWORD)
    response = client.post(reverse("accounts:login"), {
        "username": "erin", "password": PASSWORD, "next": "/ladder/play/"})
    assert response["Location"] == "/ladder/play/"
    client.logout()
    response = client.post(reverse("accounts:login"), {
        "username": "erin", "password": PASSWORD, "next": "https://evil.example/"})
    assert response["Location"] == reverse("accounts:profile")


def test_a_wrong_password_says_so_without_telling_which_part_was_wrong(client: Client) -> None:
    get_user_model().objects.create_user(username="fay", password=PASSWORD)
    response = client.post(reverse("accounts:login"), {"username": "fay", "password": "nope"})
    assert response.status_code == 200
    assert b"That name and password do not match an account." in response.content


def test_five_failures_lock_that_name_from_that_address_for_a_while(client: Client) -> None:
    get_user_model().objects.create_user(username="gil", password=PASSWORD)
    for _ in range(LOGIN_FAILURES_ALLOWED):
        client.post(reverse("accounts:login"), {"username": "gil", "password": "wrong"})
    # Now even the right password is refused, with a clear message.
    response = client.post(reverse("accounts:login"), {"username": "gil",
                                                       "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    text = response.content.decode()
    assert "Too many failed log-ins" in text and re.search(r"Try again in 1[45] minutes", text)
    # Another address is not locked out.
    other = Client(REMOTE_ADDR="10.1.2.3")
    assert other.post(reverse("accounts:login"), {"username": "gil",
                                                  "password": PASSWORD}).status_code == 302


def test_the_lock_lifts_when_old_failures_leave_the_window(client: Client) -> None:
    from datetime import timedelta

    from django.utils import timezone

    get_user_model().objects.create_user(username="hal", password=PASSWORD)
    for _ in range(LOGIN_FAILURES_ALLOWED):
        client.post(reverse("accounts:login"), {"username": "hal", "password": "wrong"})
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = client.post(reverse("accounts:login"), {"username": "hal", "password": PASSWORD})
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="hal").exists()


def test_the_lock_counts_a_name_ignoring_case(client: Client) -> None:
    get_user_model().objects.create_user(username="Ida", password=PASSWORD)
    for typed in ["ida", "IDA", "Ida", "iDa", "idA"][:LOGIN_FAILURES_ALLOWED]:
        client.post(reverse("accounts:login"), {"username": typed, "password": "wrong"})
    response = client.post(reverse("accounts:login"), {"username": "ida", "password": PASSWORD})
    assert "Too many failed log-ins" in response.content.decode()


def test_fresh_forged_forwarded_headers_do_not_escape_the_lock(client: Client) -> None:
    """Without a proxy configured, X-Forwarded-For and X-Real-IP are the client's own words."""
    get_user_model().objects.create_user(username="jon", password=PASSWORD)
    answers = []
    for n in range(15):
        forged = f"198.51.100.{n + 1}"
        response = client.post(reverse("accounts:login"), {"username": "jon", "password": "x"},
                               HTTP_X_FORWARDED_FOR=forged, HTTP_X_REAL_IP=forged)
        answers.append("Too many failed log-ins" in response.content.decode())
    # The failure that reaches the limit already says so; every later try is refused.
    assert answers == [False] * (LOGIN_FAILURES_ALLOWED - 1) + [True] * (
        16 - LOGIN_FAILURES_ALLOWED)


def test_behind_one_proxy_each_client_is_keyed_on_the_address_the_proxy_set(
        client: Client, settings) -> None:
    """deploy/nginx.conf overwrites X-Forwarded-For with the address it sees; from a listed
    proxy the app reads that header, so two clients behind the same proxy are counted apart."""
    settings.TRUSTED_PROXY_NETWORKS = (ip_network("172.18.0.0/16"),)
    get_user_model().objects.create_user(username="kim", password=PASSWORD)
    proxy = Client(REMOTE_ADDR="172.18.0.9")
    for _ in range(15):
        response = proxy.post(reverse("accounts:login"), {"username": "kim", "password": "x"},
                              HTTP_X_FORWARDED_FOR="81.2.69.160")
    assert "Too many failed log-ins" in response.content.decode()
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"81.2.69.160"}
    neighbour = proxy.post(reverse("accounts:login"), {"username": "kim", "password": PASSWORD},
                           HTTP_X_FORWARDED_FOR="81.2.69.161")
    assert neighbour.status_code == 302


def test_behind_a_chain_of_appending_proxies_the_entry_the_proxies_added_counts(
        settings) -> None:
    """Each listed proxy appends the address it saw; whatever the client wrote to the left of
    the first address no listed proxy wrote is ignored."""
    settings.TRUSTED_PROXY_NETWORKS = (ip_network("172.18.0.0/16"), ip_network("10.1.2.3"))
    get_user_model().objects.create_user(username="lou", password=PASSWORD)
    proxy = Client(REMOTE_ADDR="172.18.0.9")
    for n in range(15):
        response = proxy.post(reverse("accounts:login"), {"username": "lou", "password": "x"},
                              HTTP_X_FORWARDED_FOR=f"198.51.100.{n + 1}, 81.2.69.160, 10.1.2.3")
    assert "Too many failed log-ins" in response.content.decode()
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"81.2.69.160"}


def test_the_shipped_proxy_sets_the_client_address_header_itself() -> None:
    from pathlib import Path

    conf = (Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "$proxy_add_x_forwarded_for" not in conf


def test_changing_the_password(client: Client) -> None:
    user = get_user_model().objects.create_user(username="ivy", password=PASSWORD)
    client.force_login(user)
    response = client.post(reverse("accounts:password_change"), {
        "old_password": PASSWORD, "new_password1": "a brand new secret",
        "new_password2": "a brand new secret"})
    assert response["Location"] == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password("a brand new secret")
    assert "_auth_user_id" in client.session  # still logged in


def test_password_reset_mails_a_link_that_sets_a_new_password(client: Client) -> None:
    get_user_model().objects.create_user(username="jo", email="jo@example.com",
                                         password=PASSWORD)
    response = client.post(reverse("accounts:password_reset"), {"email": "jo@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["jo@example.com"] and "Chudopoly" in message.subject
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": "reset and ready",
                                 "new_password2": "reset and ready"})
    assert done["Location"] == reverse("accounts:password_reset_complete")
    assert get_user_model().objects.get(username="jo").check_password("reset and ready")


def test_password_reset_for_an_unknown_address_sends_nothing_but_looks_the_same(
        client: Client) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_one_address_gets_only_a_few_reset_mails_an_hour(client: Client, settings) -> None:
    get_user_model().objects.create_user(username="max", email="max@example.com",
                                         password=PASSWORD)
    answers = set()
    for n in range(15):
        # From fifteen client addresses: the limit is the mailbox's, not only the sender's.
        sender = Client(REMOTE_ADDR=f"10.0.0.{n + 1}")
        response = sender.post(reverse("accounts:password_reset"), {"email": "MAX@example.com"})
        answers.add((response.status_code, response["Location"]))
    assert len(mail.outbox) == settings.PASSWORD_RESET_PER_EMAIL
    assert answers == {(302, reverse("accounts:password_reset_done"))}  # the same every time


def test_one_client_gets_only_a_few_reset_mails_an_hour_whatever_the_address(
        client: Client, settings) -> None:
    for n in range(15):
        get_user_model().objects.create_user(username=f"u{n}", email=f"u{n}@example.com",
                                             password=PASSWORD)
    for n in range(15):
        response = client.post(reverse("accounts:password_reset"), {"email": f"u{n}@example.com"},
                               HTTP_X_FORWARDED_FOR=f"198.51.100.{n + 1}")
        assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == settings.PASSWORD_RESET_PER_CLIENT


def test_the_reset_limit_counts_unknown_addresses_too_so_it_tells_nothing(
        client: Client, settings) -> None:
    """A stranger cannot learn whether an address has an account from when the mails stop."""
    get_user_model().objects.create_user(username="ned", email="ned@example.com",
                                         password=PASSWORD)
    for n in range(settings.PASSWORD_RESET_PER_CLIENT):
        client.post(reverse("accounts:password_reset"), {"email": f"nobody{n}@example.com"})
    response = client.post(reverse("accounts:password_reset"), {"email": "ned@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_a_display_name_shows_on_the_profile(client: Client) -> None:
    user = get_user_model().objects.create_user(username="kim", password=PASSWORD)
    Profile.objects.create(user=user)
    client.force_login(user)
    client.post(reverse("accounts:profile_edit"), {"display_name": "Kim the Great"})
    page = Client().get(reverse("accounts:profile_detail", args=["kim"]))
    assert b"Kim the Great" in page.content and b"@kim" in page.content
    assert b"Edit profile" not in page.content  # only the owner sees the form


def test_an_unknown_profile_is_404(client: Client) -> None:
    assert client.get(reverse("accounts:profile_detail", args=["ghost"])).status_code == 404
