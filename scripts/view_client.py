#!/usr/bin/env python3
"""A WebSocket viewer of `planekit view` on Python's standard library, for scripts/bench-view.sh.

    view_client.py PORT READY_FILE

Connects to ws://127.0.0.1:PORT/events (retrying for up to 30 s while the server starts),
touches READY_FILE once the first message (the snapshot) is in, then reads every message until
the `end` event or the end of the connection, and prints what it got as one line of JSON:
messages, lines, bytes, snapshots (`reset` events: the first, plus one per time it fell behind).
Every wait is bounded: a read waits at most 30 s.
"""
import json
import os
import socket
import sys
import time


def connect(port):
    deadline = time.time() + 30
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def main():
    port, ready = int(sys.argv[1]), sys.argv[2]
    sock = connect(port)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("view_client: no handshake answer")
        buffer += chunk
    head, buffer = buffer.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        sys.exit("view_client: not upgraded: " + head.decode(errors="replace"))
    stats = {"messages": 0, "lines": 0, "bytes": 0, "snapshots": 0, "ended": False}
    while not stats["ended"]:
        while True:  # one whole frame in the buffer?
            if len(buffer) >= 2:
                length, header = buffer[1] & 0x7F, 2
                if length == 126 and len(buffer) >= 4:
                    length, header = int.from_bytes(buffer[2:4], "big"), 4
                elif length == 127 and len(buffer) >= 10:
                    length, header = int.from_bytes(buffer[2:10], "big"), 10
                if length < 126 or header > 2:
                    if len(buffer) >= header + length:
                        break
            chunk = sock.recv(1 << 20)
            if not chunk:
                print(json.dumps(stats))
                return
            buffer += chunk
        opcode, payload, buffer = buffer[0] & 0x0F, buffer[header:header + length], buffer[header + length:]
        if opcode == 8:
            break
        if opcode != 1:
            continue
        if stats["messages"] == 0:
            open(ready, "w").close()
        stats["messages"] += 1
        stats["bytes"] += len(payload)
        for line in payload.split(b"\n"):
            if not line:
                continue
            stats["lines"] += 1
            if line.startswith(b'{"event":"reset"'):
                stats["snapshots"] += 1
            elif line.startswith(b'{"event":"end"'):
                stats["ended"] = True
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
