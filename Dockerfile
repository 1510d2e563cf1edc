# syntax=docker/dockerfile:1
# The imserver image: the web client built with Node, embedded in a static Go
# binary, on Alpine (its busybox wget serves the health check).

FROM node:20-bookworm-slim AS ui
WORKDIR /src/ui
COPY ui/package.json ui/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY ui/ ./
RUN mkdir -p dist && npm run build

FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=ui /src/ui/dist ./ui/dist
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /imserver ./cmd/imserver

FROM alpine:3.22
RUN addgroup -S -g 10001 imserver \
    && adduser -S -D -H -u 10001 -G imserver imserver \
    && mkdir /data \
    && chown imserver:imserver /data
COPY --from=build /imserver /usr/local/bin/imserver
USER 10001:10001
ENV IM_HTTP_ADDR=:8080 IM_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
    CMD wget -q -O /dev/null "http://127.0.0.1:${IM_HTTP_ADDR##*:}/readyz" || exit 1
ENTRYPOINT ["/usr/local/bin/imserver"]
