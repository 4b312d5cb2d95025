"""The WSGI entry point (``gunicorn casino.wsgi:application``, the Procfile, bench/api.py).

Once Django and the URL conf (every view, serializer and engine module) are loaded, what they
allocated is moved out of the garbage collector's sight (``gc.freeze``): otherwise each full
collection walks the whole framework again, tens of milliseconds inside some dealer's request.
What a request allocates is collected as usual.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018 - imports every urlconf and so every view module, now
gc.collect()
gc.freeze()
