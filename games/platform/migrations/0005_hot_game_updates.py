"""Moves update the game row in place (HOT) and write fewer index entries (models.Game.Meta)."""

import django.db.models.deletion
from django.db import migrations, models

# Half of each page of games_game is kept free: a row is about 2 KB (its state is compressed
# inline), and a HOT update needs room for the new version on the same page.
GAME_FILLFACTOR = 50


def _set_fillfactor(apps, schema_editor, value=GAME_FILLFACTOR):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_game SET (fillfactor = {int(value)})")


def _reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_seat_sockets'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='game',
            name='games_game_status_b73818_idx',
        ),
        migrations.AlterField(
            model_name='game',
            name='clock_due',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='gameaction',
            name='game',
            field=models.ForeignKey(db_index=False,
                                    on_delete=django.db.models.deletion.CASCADE,
                                    related_name='actions', to='games.game'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('status', 'running')), fields=['id'],
                               name='game_running'),
        ),
        migrations.RunPython(_set_fillfactor, _reset_fillfactor),
    ]
