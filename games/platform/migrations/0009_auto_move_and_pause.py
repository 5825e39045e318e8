from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_table_rematch'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='auto_move',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='table',
            name='paused_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
