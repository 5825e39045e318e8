"""Private tables get an unguessable invite token; the ones already open get theirs here."""

import secrets

from django.db import migrations, models


def _give_private_tables_tokens(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(is_public=False, invite_token="").only("pk").iterator():
        Table.objects.filter(pk=table.pk).update(invite_token=secrets.token_urlsafe(16))


class Migration(migrations.Migration):
    dependencies = [("games", "0005_hot_game_updates")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="invite_token",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(_give_private_tables_tokens, migrations.RunPython.noop),
    ]
