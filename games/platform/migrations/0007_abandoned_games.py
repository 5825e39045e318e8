"""A game nobody plays can be closed as abandoned (games/platform/abandoned.py): one more status."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0006_private_table_invite_tokens")]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[("running", "Running"), ("finished", "Finished"),
                         ("abandoned", "Abandoned")],
                default="running", max_length=10),
        ),
    ]
