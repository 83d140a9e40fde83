# syntax=docker/dockerfile:1
# sqs-sim serve in a container: a local SQS endpoint with a virtual clock and the live view.
#
#   docker build -t sqs-sim .
#   docker run --rm -p 127.0.0.1:9324:9324 sqs-sim
#   docker run --rm -p 127.0.0.1:9324:9324 -v ./queues.toml:/config/queues.toml:ro \
#     -e SQS_SIM_CONFIG=/config/queues.toml sqs-sim --seed 1
#
# Three stages: the static server binary (musl, the Rust pinned in rust-toolchain.toml), the
# playground's live bundle (what `./play live` builds into dist-live/, for the live view at /), and a
# final image FROM scratch holding only those two and a static busybox for the HEALTHCHECK (a
# scratch image has no shell and no HTTP client). README.md, "Container image", says how to use it.

# Keep equal to rust-toolchain.toml's channel (scripts/container-test.sh checks).
ARG RUST_VERSION=1.95.0

FROM rust:${RUST_VERSION}-bookworm AS server
# Debian's current musl-tools and busybox-static (bookworm's security updates, not a pinned one).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools busybox-static \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# rust-toolchain.toml selects the pinned toolchain; the static target is added to it.
ARG TARGETARCH
RUN case "${TARGETARCH:-amd64}" in arm64) arch=aarch64 ;; *) arch=x86_64 ;; esac \
    && rustup target add "$arch-unknown-linux-musl" \
    && cargo build --locked --release -p sqs-server --target "$arch-unknown-linux-musl" \
    && mkdir -p /out/data /out/config \
    && cp "target/$arch-unknown-linux-musl/release/sqs-sim" /out/sqs-sim \
    && cp /bin/busybox /out/busybox

FROM rust:${RUST_VERSION}-bookworm AS bundle
# Node.js 20 for npm's wasm-opt (binaryen) and the gzip twins (scripts/post-build.mjs).
COPY --from=node:20-bookworm-slim /usr/local/bin/node /usr/local/bin/node
COPY --from=node:20-bookworm-slim /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
WORKDIR /src
COPY . .
RUN scripts/setup.sh rust trunk wasm-bindgen npm \
    && . scripts/env.sh \
    && trunk build --release --features live --dist dist-live

FROM scratch
COPY --from=server /out/sqs-sim /sqs-sim
COPY --from=server /out/busybox /bin/busybox
COPY --from=server --chown=65534:65534 /out/data /data
COPY --from=server /out/config /config
COPY --from=bundle /src/dist-live /ui
# Inside the container the server listens on every interface (its default is loopback only);
# publish the port on the host's loopback (-p 127.0.0.1:9324:9324) unless others should reach it.
ENV SQS_SIM_HOST=0.0.0.0 \
    SQS_SIM_PORT=9324 \
    SQS_SIM_UI=/ui
# /config: a queues file (SQS_SIM_CONFIG=/config/queues.toml); /data: a writable directory for
# the server's data.
VOLUME ["/config", "/data"]
EXPOSE 9324
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/bin/busybox", "wget", "-q", "-O", "/dev/null", "http://127.0.0.1:9324/health"]
USER 65534:65534
ENTRYPOINT ["/sqs-sim", "serve"]
