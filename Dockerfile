# The beliefgraph API image. The CPU build of torch keeps it ~1.5 GB instead of ~6 GB.
FROM python:3.11-slim
WORKDIR /app
RUN pip install --no-cache-dir --index-url https://download.pytorch.org/whl/cpu torch
COPY pyproject.toml README.md ./
COPY beliefgraph ./beliefgraph
COPY api ./api
COPY cypher ./cypher
COPY samples ./samples
RUN pip install --no-cache-dir . \
 && python -c "from pathlib import Path; from beliefgraph.embeddings import load_embedder; load_embedder(Path('/root/.cache/beliefgraph'))"
ENV HF_HUB_OFFLINE=1
EXPOSE 8000
CMD ["beliefgraph", "serve", "--host", "0.0.0.0", "--port", "8000"]
