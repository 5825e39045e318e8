FROM python:3.11-slim AS app
ENV PYTHONUNBUFFERED=1 UV_PROJECT_ENVIRONMENT=/opt/venv PATH=/opt/venv/bin:$PATH
RUN pip install --no-cache-dir uv
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev
COPY . .

# The platform's hot modules compiled by mypyc (games/platform/speedups.py), with a C compiler
# that stays in this stage.
FROM app AS speedups
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN DEBUG=1 python manage.py build_speedups

FROM app
COPY --from=speedups /app/.speedups /app/.speedups
RUN DEBUG=1 python manage.py collectstatic --noinput
# Production unless told otherwise: without DEBUG=0 a forgotten variable would serve debug pages
# with a known key. Local runs use `manage.py serve`, where DEBUG defaults to 1.
ENV DEBUG=0
EXPOSE 8000
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-worker"]
